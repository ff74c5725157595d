import { Button, type ButtonProps } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { useTexts } from '../i18n';
import { notify } from '../lib/toast';

const COPIED_FOR_MS = 2_000;

/** Copies `value` to the clipboard; reads 'Copied' for two seconds after. `what` names it for screen readers. */
export function CopyButton({ value, what, ...rest }: { value: string; what: string } & Omit<ButtonProps, 'value'>) {
  const { t } = useTexts();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      notify({ title: t('common.copyFailed'), type: 'error' });
    }
  };
  return (
    <Button size="xs" variant="outline" onClick={copy} aria-label={t('common.copyLabel', { what })} {...rest}>
      {copied ? t('common.copied') : t('common.copy')}
    </Button>
  );
}
