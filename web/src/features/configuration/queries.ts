// The page reads what the dashboard's config section and /qpay read, through their own queries (one cache entry each).
export { useConfigStatus } from '../config/queries';
export { useQpaySettings } from '../qpay/queries';
