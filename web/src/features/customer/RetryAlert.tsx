import { useEffect, useState } from 'react';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useTexts } from '../../i18n';
import { waitOf, type RetryLater } from './fetch-result';

/**
 * A click refused for now (issue 18: one mailbox read per key per 30 s; a mailbox left alone after
 * failed sign-ins): why, and when to try again — counting down in seconds, or the clock time.
 */
export function RetryAlert({ retry, testId }: { retry: RetryLater; testId: string }) {
  const { t, format } = useTexts();
  const [now, setNow] = useState(() => new Date());
  const wait = waitOf(retry.at, now);
  const waiting = wait !== 'now';
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => setNow(new Date()), 1_000);
    return () => clearInterval(timer);
  }, [waiting]);
  const when = wait === 'now' ? t('customer.tryAgainNow') : 'in' in wait ? t('customer.tryAgainIn', { count: wait.in }) : t('customer.tryAgainAt', { time: format.hour(wait.at) });
  return (
    <ErrorAlert
      testId={testId}
      status="warning"
      data-retry-at={retry.at.toISOString()}
      title={t(retry.reason === 'tooSoon' ? 'customer.tooSoon' : 'customer.mailboxPaused')}
      description={when}
    />
  );
}
