/**
 * The functions' AWS credentials: Lambda hands every function its role's credentials in environment
 * variables, so a bundle replaces the SDK's default provider chain (environment, then SSO, profiles,
 * processes, web identity, container and instance metadata) with its first link. That chain is about
 * 130 KiB of a DynamoDB bundle (40% of a GetItem-only one), parsed at every cold start. bundling.ts aliases
 * @aws-sdk/credential-provider-node here; tools run from source (deckctl --aws) keep the whole chain.
 */
import { fromEnv } from '@aws-sdk/credential-provider-env';

export const defaultProvider = (init: Parameters<typeof fromEnv>[0] = {}) => fromEnv(init);
