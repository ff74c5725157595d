// Alerts: rules evaluated on a schedule, each condition pending → firing → resolved once (docs/alerts.md).
export { Alerts, sweepAlerts, type AlertFinding, type AlertRule, type AlertsOptions } from './alerts';
export { BREAKER_OPEN_ALERT_MS, BreakerReporter, breakerOpenRule, deadLettersRule } from './platform-rules';
export { registerAlertRoutes } from './routes';
