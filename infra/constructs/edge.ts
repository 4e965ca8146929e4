/**
 * Public reads at the edge (contract §11.2): an Amazon CloudFront distribution in front of the HTTP API, its
 * behaviours derived from the route table — no second list here. A route declared `edge: 'cached'`
 * (lib/routes/route.ts) gets a behaviour of its path (each `{param}` a `*`) whose cache key is exactly what its
 * answer varies on: the path, the query parameters its route declares, the reader's language and the host
 * asked (both made one value each by the viewer-request function: infra/edge-function.ts), kept as its
 * Cache-Control says (no Cache-Control: not kept); nothing else of the viewer's request — no Authorization, no
 * cookie, no Host — reaches its origin. Every other route (owner routes, shared reads, `/d/{slug}`, likes,
 * anything that reads a key or counts a view) goes through the default behaviour: never cached
 * (`CachingDisabled`), every viewer header but Host forwarded (`AllViewerExceptHostHeader`: API Gateway answers
 * 403 to a foreign Host). HTTPS only, gzip and Brotli. A new catalogue makes every cache key new at its deploy
 * (the function carries its version: what an image or a card shows changes with it). A custom domain is an
 * opt-in setting (infra/settings.ts).
 */
import { Duration, Fn, Names, Stack, Validations } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  type BehaviorOptions,
  CacheCookieBehavior,
  CacheHeaderBehavior,
  CachePolicy,
  CacheQueryStringBehavior,
  Distribution,
  Function as EdgeFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  OriginProtocolPolicy,
  OriginRequestCookieBehavior,
  OriginRequestHeaderBehavior,
  OriginRequestPolicy,
  OriginRequestQueryStringBehavior,
  PriceClass,
  ResponseHeadersPolicy,
  S3OriginAccessControl,
  Signing,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { CORS, type Route } from '#routes';
import { LIFETIMES, maxAgeOf } from '#routes/cache-lifetimes.ts';
import { BULK_FOLDER } from '#rules/bulk.ts';
import { cachedBehaviours, rootObjectOf } from '../edge-behaviours.ts';
import { catalogueVersion, EDGE_CATALOGUE_HEADER, EDGE_HOST_HEADER, EDGE_LANGUAGE_HEADER, edgeFunctionCode } from '../edge-function.ts';
import { guardException } from '../guard.ts';

export interface EdgeProps {
  api: HttpApi;
  routes: readonly Route[];
  /** The path a reader of the edge's root (`/`) is shown: the reference page. */
  root: string;
  /** The catalogue file the functions ship: a new one makes every cache key new at its deploy. */
  catalogueFile: string;
  /** A custom domain (its ACM certificate in us-east-1), opt-in. */
  domain?: { names: string[]; certificateArn: string };
  /** The bulk files' bucket (contract §12.2): served at `/bulk/*`, read by origin access control. */
  files?: IBucket;
}

/**
 * A name that is the account's, not the region's (CloudFront's policies): the construct's unique id (its stack's name
 * among it) and the stack's region, so that a second region or stack in one account names none twice (CDK names its
 * cache policies so by default, not its origin request and response headers policies: github.com/aws/aws-cdk/issues/34336).
 */
export const accountWideName = (scope: Construct, id: string, unique = 100): string =>
  `${Names.uniqueResourceName(scope, { maxLength: unique })}${id}-${Stack.of(scope).region}`;

export class Edge extends Construct {
  readonly distribution: Distribution;

  constructor(scope: Construct, id: string, { api, routes, root, catalogueFile, domain, files }: EdgeProps) {
    super(scope, id);
    // The API's own host: the origin request carries it (never the viewer's Host), over HTTPS only.
    const origin = new HttpOrigin(Fn.select(2, Fn.split('/', api.apiEndpoint)), { protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY });
    const viewerRequest = new EdgeFunction(this, 'ViewerRequest', {
      code: FunctionCode.fromInline(edgeFunctionCode(catalogueVersion(catalogueFile))),
      runtime: FunctionRuntime.JS_2_0,
      comment: 'Deck Library: the reader language and host, one value each (infra/edge-function.ts)',
    });
    const functionAssociations = [{ function: viewerRequest, eventType: FunctionEventType.VIEWER_REQUEST }];
    const common = { origin, viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS, compress: true, functionAssociations };
    // Cache policies by the query parameters they key on: behaviours that key on the same share one.
    const policies = new Map<string, CachePolicy>();
    const policyFor = (query: string[]) => {
      const name = query.join(',');
      let policy = policies.get(name);
      if (!policy) {
        policy = new CachePolicy(this, `Cached${policies.size}`, {
          // Its query parameters counted, not named: a comment holds at most 128 characters (CDK checks it at synth).
          comment: `Deck Library: path, ${query.length ? `${query.length} query parameters, ` : ''}language, host, catalogue; as Cache-Control says`,
          queryStringBehavior: query.length ? CacheQueryStringBehavior.allowList(...query) : CacheQueryStringBehavior.none(),
          headerBehavior: CacheHeaderBehavior.allowList(EDGE_LANGUAGE_HEADER, EDGE_HOST_HEADER, EDGE_CATALOGUE_HEADER),
          cookieBehavior: CacheCookieBehavior.none(),
          enableAcceptEncodingGzip: true,
          enableAcceptEncodingBrotli: true,
          // As the answer's Cache-Control says: none, not kept; at most a day.
          minTtl: Duration.seconds(0),
          defaultTtl: Duration.seconds(0),
          maxTtl: Duration.days(1),
        });
        policies.set(name, policy);
      }
      return policy;
    };
    // A cached behaviour forwards the cache key's values (language, host, catalogue, declared query) and what a
    // CORS preflight needs (not in the key): nothing of the viewer's Authorization, cookies or Host.
    const forwarded = new OriginRequestPolicy(this, 'CachedForward', {
      originRequestPolicyName: accountWideName(this, 'CachedForward'),
      comment: 'Deck Library: a cached answer forwards its cache key and a preflight, nothing else',
      headerBehavior: OriginRequestHeaderBehavior.allowList('origin', 'access-control-request-method', 'access-control-request-headers'),
      queryStringBehavior: OriginRequestQueryStringBehavior.none(),
      cookieBehavior: OriginRequestCookieBehavior.none(),
    });
    // Its answers hold the API's CORS headers whoever first asked (a reader without an Origin header gets the
    // same copy as a page of another origin).
    const cors = new ResponseHeadersPolicy(this, 'CachedCors', {
      responseHeadersPolicyName: accountWideName(this, 'CachedCors'),
      comment: 'Deck Library: the API CORS headers on cached answers',
      corsBehavior: {
        accessControlAllowOrigins: [...CORS.allowOrigins],
        accessControlAllowMethods: ['GET', 'HEAD', 'OPTIONS'],
        accessControlAllowHeaders: [...CORS.allowHeaders],
        accessControlExposeHeaders: [...CORS.exposeHeaders],
        accessControlAllowCredentials: false,
        accessControlMaxAge: Duration.seconds(CORS.maxAgeSeconds),
        originOverride: false,
      },
    });
    // Most specific first (edge-behaviours.ts): CloudFront takes the first pattern a path matches.
    const additionalBehaviors: Record<string, BehaviorOptions> = Object.fromEntries(
      cachedBehaviours(routes).map(({ pattern, query }) => [
        pattern,
        {
          ...common,
          allowedMethods: AllowedMethods.ALLOW_GET_HEAD_OPTIONS,
          cachePolicy: policyFor(query),
          originRequestPolicy: forwarded,
          responseHeadersPolicy: cors,
        },
      ]),
    );
    // The bulk files: from the private bucket by origin access control (the bucket's policy lets this distribution alone
    // read), keyed by their path alone — no query, header or cookie — and kept a year (a file's key never changes).
    // Not compressed again (they are gzip); no viewer function (nothing of the viewer's is in their key).
    if (files)
      additionalBehaviors[`/${BULK_FOLDER}/*`] = {
        origin: S3BucketOrigin.withOriginAccessControl(files, {
          // Named as the policies are (its name is the account's; CDK's own is not the region's): at most 64 characters.
          originAccessControl: new S3OriginAccessControl(this, 'FilesAccess', {
            originAccessControlName: accountWideName(this, 'Files', 40),
            signing: Signing.SIGV4_ALWAYS,
          }),
        }),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        compress: false,
        cachePolicy: new CachePolicy(this, 'Files', {
          comment: 'Deck Library: the bulk files, by path alone; an hour at most (a file the bucket deletes leaves the edge then)',
          queryStringBehavior: CacheQueryStringBehavior.none(),
          headerBehavior: CacheHeaderBehavior.none(),
          cookieBehavior: CacheCookieBehavior.none(),
          enableAcceptEncodingGzip: false,
          enableAcceptEncodingBrotli: false,
          minTtl: Duration.seconds(0),
          defaultTtl: Duration.seconds(maxAgeOf(LIFETIMES.bulkFile)),
          maxTtl: Duration.seconds(maxAgeOf(LIFETIMES.bulkFile)),
        }),
      };
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Deck Library',
      defaultBehavior: {
        ...common,
        allowedMethods: AllowedMethods.ALLOW_ALL,
        cachePolicy: CachePolicy.CACHING_DISABLED,
        originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      },
      additionalBehaviors,
      defaultRootObject: rootObjectOf(root),
      priceClass: PriceClass.PRICE_CLASS_100,
      ...(domain
        ? { domainNames: domain.names, certificate: Certificate.fromCertificateArn(this, 'Certificate', domain.certificateArn) }
        : {}),
    });
    guardException(this.distribution, 'cloudfront_origin_failover_enabled_check');
    guardException(this.distribution, 'cloudfront_access_logs_enabled_check');
    if (!domain)
      for (const rule of [
        'cloudfront_custom_ssl_certificate_check',
        'cloudfront_sni_enabled_check',
        'cloudfront_security_policy_check',
      ] as const)
        guardException(this.distribution, rule);
    Validations.of(this).acknowledge(
      {
        id: 'AwsSolutions::AwsSolutions-CFR1',
        reason: 'No geo restriction: KARDS is played worldwide, and the API answers everyone (the requirement).',
      },
      {
        id: 'AwsSolutions::AwsSolutions-CFR2',
        reason:
          'WAF is an opt-in (docs/operations.md): a web ACL bills $5 a month and $1 a rule, past the whole idle budget; the routes are throttled at the origin.',
      },
      {
        id: 'AwsSolutions::AwsSolutions-CFR3',
        reason:
          'No access logs at the edge: the origin logs every request that reaches it (the access log), and standard logs bill for their bucket.',
      },
      {
        id: 'AwsSolutions::AwsSolutions-CFR4',
        reason:
          "The default domain's certificate is CloudFront's (TLSv1 allowed by its policy); a custom domain (opt-in) gets TLSv1.2_2021.",
      },
    );
  }
}
