import { useTexts } from '../../i18n';
import { DeniedNotice } from '../auth/AdminGuard';

/** Document 3 §6: what a signed-in non-admin sees on /streaming-keys, instead of the dashboard's Access Denied. */
export default function AdminOnly() {
  const { t } = useTexts();
  return <DeniedNotice title={t('streamingKeys.adminOnlyTitle')} lines={[t('streamingKeys.adminOnlyBody')]} testId="admin-only" />;
}
