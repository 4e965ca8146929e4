/** Each test worker: the store points at the run's DynamoDB Local. */
import { inject } from 'vitest';

process.env.DYNAMODB_ENDPOINT = inject('dynamoEndpoint');
