// Rotate is /qpay's: the reply's settings (the new secret masked, its rotated-at) replace the cached ones on both pages.
export { useRotateWebhookSecret } from '../qpay/mutations';
