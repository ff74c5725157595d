export const en = {
  'config.title': 'Configuration',
  'config.subtitle': 'Which integrations are configured, and which run against a local simulator.',
  'config.configured': 'Configured',
  'config.notConfigured': 'Not configured',
  'config.simulated': 'Simulator',
  'config.simulatedHint': 'Runs against a local simulator, not the real service',
  'config.loading': 'Loading configuration status...',
  'config.error': 'Could not load the configuration status',
  'config.empty': 'No configuration items reported',
  'config.openHub': 'Webhook secrets and data key',
} as const;
