/**
 * The shapes routes name (lib/routes/): each answer's `data` and `meta`, each request body, by name. A
 * route names its shapes rather than holding them, so that a function bundles its route's declaration
 * without every response shape (they are built at import); the compiler turns a name into its type
 * (lib/http/types.ts), the OpenAPI document into its schema (openapi.ts).
 */
import * as v from 'valibot';
import { EntryBody, EventBody, EventPatch } from '#rules/events.ts';
import { DISCORD_LIMITS } from '#rules/limits.ts';
import { Detail, Details, ErrorMeta } from './errors.ts';
import * as E from './events.ts';
import { CollectionBody, CollectionPatch, CreateBody, EmptyBody, ErasureBody, KeyBody, PatchBody, ReplaceBody } from './requests.ts';
import * as S from './responses.ts';
import * as W from './webhooks.ts';

/** The OpenAPI document itself (its operation answers the bare document). */
export const OpenApiDocument = v.looseObject({ openapi: v.literal('3.1.0'), info: v.looseObject({}), paths: v.looseObject({}) });

/**
 * The shapes the OpenAPI document names as components (#/components/schemas/<name>, lib/docs/openapi.ts): the
 * answers' objects and the parts they share. The one registry of named shapes: what routes name (SHAPES) is these,
 * lists of them, and the request bodies.
 */
export const COMPONENTS = {
  OwnerDeck: S.OwnerDeck,
  OwnerListItem: S.OwnerListItem,
  PublicDeck: S.PublicDeck,
  SearchItem: S.SearchItem,
  SimilarDeck: S.SimilarDeck,
  BulkDeck: S.BulkDeck,
  BulkPlays: S.BulkPlays,
  BulkFile: S.BulkFile,
  VersionListItem: S.VersionListItem,
  PublicVersionListItem: S.PublicVersionListItem,
  DeckVersion: S.DeckVersion,
  KeyItem: S.KeyItem,
  AccountExport: S.AccountExport,
  Collection: S.Collection,
  MissingCards: S.MissingCards,
  ExportMeta: S.ExportMeta,
  CreatedKey: S.CreatedKey,
  RevokedKey: S.RevokedKey,
  ErasedAccount: S.ErasedAccount,
  DeckContent: S.DeckContent,
  ValidateResult: S.ValidateResult,
  ReplaceResult: S.ReplaceResult,
  DeleteResult: S.DeleteResult,
  LikeResult: S.LikeResult,
  Card: S.Card,
  Language: S.Language,
  Guide: S.Guide,
  GuideSummary: S.GuideSummary,
  Archive: S.Archive,
  KeyComponents: S.KeyComponents,
  Alternatives: S.Alternatives,
  ChartSettings: S.ChartSettings,
  Display: S.Display,
  CardCount: S.CardCount,
  Stats: S.Stats,
  Legality: S.Legality,
  OtkChart: S.OtkChart,
  Meta: S.Meta,
  ListMeta: S.ListMeta,
  CardListMeta: S.CardListMeta,
  Event: E.Event,
  Entry: E.Entry,
  Webhook: W.Webhook,
  CreatedWebhook: W.CreatedWebhook,
  ChangedWebhook: W.ChangedWebhook,
  Delivery: W.Delivery,
  ErrorDetail: Detail,
  ErrorDetails: Details,
  ErrorMeta,
} satisfies Record<string, v.GenericSchema>;

/** A string of at most `max` characters; `nonEmpty`: at least one. */
const text = (max: number, nonEmpty = false) =>
  nonEmpty ? v.pipe(v.string(), v.minLength(1), v.maxLength(max)) : v.pipe(v.string(), v.maxLength(max));

/**
 * Discord's interaction response, as the interactions endpoint answers it (Discord: Interactions, "Interaction Response
 * Object"; "Embed Object", "Embed Limits"; "Allowed Mentions Object"; discord-api-types' APIInteractionResponse): PONG
 * (1), a message (4: an embed, or a text only its sender sees), or autocomplete's choices (8). Discord's bounds are
 * lib/rules/limits.ts's DISCORD_LIMITS: the shape the document publishes holds them, lib/discord/answers.ts cuts to them.
 */
const DiscordEmbed = v.strictObject({
  title: text(DISCORD_LIMITS.title),
  url: v.optional(v.pipe(v.string(), v.url())),
  description: v.optional(text(DISCORD_LIMITS.description)),
  fields: v.pipe(
    v.array(
      v.strictObject({
        name: text(DISCORD_LIMITS.fieldName, true),
        value: text(DISCORD_LIMITS.fieldValue, true),
        inline: v.optional(v.boolean()),
      }),
    ),
    v.maxLength(DISCORD_LIMITS.fields),
  ),
  image: v.optional(v.strictObject({ url: v.pipe(v.string(), v.url()) })),
});

const DiscordResponse = v.strictObject({
  type: v.picklist([1, 4, 8]),
  data: v.optional(
    v.strictObject({
      content: v.optional(text(DISCORD_LIMITS.content)),
      embeds: v.optional(v.pipe(v.array(DiscordEmbed), v.maxLength(DISCORD_LIMITS.embeds))),
      /** 64: only the sender sees it (ephemeral). */
      flags: v.optional(v.picklist([64])),
      /** Who the message may mention: no one (`parse` empty). */
      allowed_mentions: v.optional(v.strictObject({ parse: v.pipe(v.array(v.string()), v.maxLength(0)) })),
      choices: v.optional(
        v.pipe(
          v.array(v.strictObject({ name: text(DISCORD_LIMITS.choiceName, true), value: v.string() })),
          v.maxLength(DISCORD_LIMITS.choices),
        ),
      ),
    }),
  ),
});

export const SHAPES = {
  ...COMPONENTS,
  // Answers: lists, and those the document inlines
  'OwnerListItem[]': v.array(COMPONENTS.OwnerListItem),
  'SearchItem[]': v.array(COMPONENTS.SearchItem),
  'SimilarDeck[]': v.array(COMPONENTS.SimilarDeck),
  BulkList: v.strictObject({ ...S.BulkList.entries, data: v.array(COMPONENTS.BulkFile) }),
  BulkFileOne: S.BulkFileOne,
  'VersionListItem[]': v.array(COMPONENTS.VersionListItem),
  'PublicVersionListItem[]': v.array(COMPONENTS.PublicVersionListItem),
  DeckDiff: S.DeckDiff,
  CodeFacts: S.CodeFacts,
  'PlayedCard[]': v.array(S.PlayedCard),
  PlayedFactions: S.PlayedFactions,
  'ArchetypeFigure[]': v.array(S.ArchetypeFigure),
  ArchetypeFigure: S.ArchetypeFigure,
  'Card[]': v.array(COMPONENTS.Card),
  'Language[]': v.array(COMPONENTS.Language),
  'KeyItem[]': v.array(COMPONENTS.KeyItem),
  'Entry[]': v.array(COMPONENTS.Entry),
  'Webhook[]': v.array(COMPONENTS.Webhook),
  'Delivery[]': v.array(COMPONENTS.Delivery),
  OpenApiDocument,
  DiscordResponse,
  /** A page, a script or an image: not JSON (the route's contentType says which). */
  Text: v.string(),
  // Meta
  PlayedCardsMeta: S.PlayedCardsMeta,
  PlayedFactionsMeta: S.PlayedFactionsMeta,
  ArchetypesMeta: S.ArchetypesMeta,
  ArchetypeMeta: S.ArchetypeMeta,
  EntriesMeta: E.EntriesMeta,
  // Request bodies
  CreateBody,
  PatchBody,
  EmptyBody,
  ReplaceBody,
  KeyBody,
  ErasureBody,
  CollectionBody,
  CollectionPatch,
  EventBody,
  EventPatch,
  EntryBody,
  WebhookBody: W.WebhookBody,
  WebhookPatch: W.WebhookPatch,
} satisfies Record<string, v.GenericSchema>;

export type ShapeName = keyof typeof SHAPES;
/** The shape of a name (a type: nothing is imported where only the type is used). */
export type ShapeOf<N extends ShapeName> = (typeof SHAPES)[N];
