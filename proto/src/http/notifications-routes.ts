/** The notifications service's routes (ManyChat settings, templates, expiry check, test notification). */
export const notificationsRoutes = [];
