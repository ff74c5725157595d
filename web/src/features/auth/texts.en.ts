export const en = {
  'auth.accessDeniedTitle': 'Access Denied',
  'auth.accessDeniedBody': "You don't have permission to access this dashboard. Only authorized administrators can view this content.",
  'auth.accessDeniedHint': 'If you believe this is an error, please contact the system administrator.',
  'auth.checking': 'Checking your session...',

  'login.title': 'Administrator Sign In',
  'login.subtitle': 'Sign in to manage prices, integrations and monitoring.',
  'login.signIn': 'Sign in as administrator',
  'login.localAccount': 'Or sign in with a local admin account',
  'login.username': 'Username',
  'login.password': 'Password',
  'login.submit': 'Sign in',
  'login.submitting': 'Signing in...',
  'login.failed': 'Sign-in failed',
} as const;
