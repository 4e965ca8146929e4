/**
 * The shapes routes name (lib/routes/): each answer's `data` and `meta`, each request body, by name. A
 * route names its shapes rather than holding them, so that a function bundles its route's declaration
 * without every response shape (they are built at import); the compiler turns a name into its type
 * (lib/http/types.ts), the OpenAPI document into its schema (openapi.ts).
 */
import * as v from 'valibot';
import { CreateBody, EmptyBody, ErasureBody, KeyBody, PatchBody, ReplaceBody } from './requests.ts';
import * as S from './responses.ts';

/** The OpenAPI document itself (its operation answers the bare document). */
export const OpenApiDocument = v.looseObject({ openapi: v.literal('3.1.0'), info: v.looseObject({}), paths: v.looseObject({}) });

export const SHAPES = {
  // Answers
  OwnerDeck: S.OwnerDeck,
  'OwnerListItem[]': v.array(S.OwnerListItem),
  PublicDeck: S.PublicDeck,
  'SearchItem[]': v.array(S.SearchItem),
  'VersionListItem[]': v.array(S.VersionListItem),
  'PublicVersionListItem[]': v.array(S.PublicVersionListItem),
  DeckVersion: S.DeckVersion,
  DeckDiff: S.DeckDiff,
  ValidateResult: S.ValidateResult,
  ReplaceResult: S.ReplaceResult,
  DeleteResult: S.DeleteResult,
  LikeResult: S.LikeResult,
  OtkChart: S.OtkChart,
  CodeFacts: S.CodeFacts,
  'MetaCard[]': v.array(S.MetaCard),
  MetaFactions: S.MetaFactions,
  Card: S.Card,
  'Card[]': v.array(S.Card),
  'Language[]': v.array(S.Language),
  'KeyItem[]': v.array(S.KeyItem),
  CreatedKey: S.CreatedKey,
  RevokedKey: S.RevokedKey,
  AccountExport: S.AccountExport,
  ErasedAccount: S.ErasedAccount,
  OpenApiDocument,
  /** Discord's interaction response (Discord: Interactions, "Interaction Response Object"): a type, and its data. */
  DiscordResponse: v.object({ type: v.picklist([1, 4, 8]), data: v.optional(v.unknown()) }),
  /** A page, a script or an image: not JSON (the route's contentType says which). */
  Text: v.string(),
  // Meta
  ListMeta: S.ListMeta,
  CardListMeta: S.CardListMeta,
  ExportMeta: S.ExportMeta,
  MetaCardsMeta: S.MetaCardsMeta,
  MetaFactionsMeta: S.MetaFactionsMeta,
  // Request bodies
  CreateBody,
  PatchBody,
  EmptyBody,
  ReplaceBody,
  KeyBody,
  ErasureBody,
} satisfies Record<string, v.GenericSchema>;

export type ShapeName = keyof typeof SHAPES;
/** The shape of a name (a type: nothing is imported where only the type is used). */
export type ShapeOf<N extends ShapeName> = (typeof SHAPES)[N];
