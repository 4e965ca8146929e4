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
