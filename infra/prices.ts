/**
 * AWS list prices this project's cost figures use (us-east-1, US$, read from the pricing pages on
 * 2026-11-23), in one place: the idle bill (idle-cost.ts, docs/operations.md) and the benchmark's prices
 * per request (scripts/bench/). Free tiers are the always-free ones (they do not end after 12 months).
 */
export const PRICES = {
  cloudwatch: {
    /** Per alarm metric and month (standard resolution): a metric-math alarm pays for each metric it reads. */
    alarmMetric: 0.1,
    freeAlarmMetrics: 10,
    /** Per dashboard and month, beyond the free ones. */
    dashboard: 3,
    freeDashboards: 3,
    /** A free dashboard holds up to this many metrics. */
    freeDashboardMetrics: 50,
    /** Per custom metric and month while it is published (embedded metric format included); none while idle. */
    customMetric: 0.3,
    freeCustomMetrics: 10,
    /** Logs stored, per GB and month. */
    logsStoredGb: 0.03,
    /** Logs ingested (standard class), per GB. */
    logsIngestedGb: 0.5,
  },
  lambda: {
    /** Duration on Arm (the functions' architecture), per GB-second (the first tier). */
    armGbSecond: 0.0000133334,
    /** Requests, per million. */
    requestsPerMillion: 0.2,
  },
  /** HTTP APIs: requests, per million (the first 300 million a month; each 512 KB of a request or answer counts as one). */
  httpApi: { requestsPerMillion: 1 },
  secretsManager: { secret: 0.4 },
  kms: { customerManagedKey: 1 },
  /**
   * S3 Standard (the bulk files' bucket): storage per GB and month (the first 50 TB), PUT, COPY, POST and LIST requests
   * (an upload's every call: CreateMultipartUpload, UploadPart, CompleteMultipartUpload) and GET requests per 1,000.
   * Its transfer to CloudFront is free. The S3 pricing page's figures as long published; not read again this session.
   */
  s3: { storageGb: 0.023, putPerThousand: 0.005, getPerThousand: 0.0004 },
  /**
   * CloudFront: transfer out to the internet per GB (the first 10 TB a month, North America and Europe: the price
   * class the distribution uses), HTTPS requests per 10,000; always free each month: 1 TB out and 10 million
   * requests. The CloudFront pricing page's figures as long published; not read again this session.
   */
  cloudfront: { transferOutGb: 0.085, httpsPerTenThousand: 0.01, freeTransferGb: 1024, freeRequests: 10_000_000 },
  /**
   * SQS standard queues: requests per million (each ReceiveMessage counts, an empty one too; up to 64 KB a request), the
   * first million a month always free (the SQS pricing page).
   */
  sqs: { requestsPerMillion: 0.4, freeRequests: 1_000_000 },
  dynamodb: {
    /** On-demand request units, per million. */
    readUnitsPerMillion: 0.125,
    writeUnitsPerMillion: 0.625,
    /** Storage per GB and month beyond the free 25 GB; point-in-time recovery per GB and month (no free tier). */
    storageGb: 0.25,
    freeStorageGb: 25,
    pitrGb: 0.2,
  },
} as const;
