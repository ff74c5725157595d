import { Button, type ButtonProps } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { useTexts } from '../i18n';
import { notify } from '../lib/toast';

const COPIED_FOR_MS = 2_000;

/**
 * A value asked of the server on the click (a secret never kept on the page): handed to the
 * clipboard as a promise where the browser takes one, so the click still counts as the user's
 * gesture once the answer arrives (Safari requires it).
 */
async function copyWhenLoaded(load: () => Promise<string>): Promise<void> {
  if (typeof ClipboardItem === 'undefined') return navigator.clipboard.writeText(await load());
  await navigator.clipboard.write([new ClipboardItem({ 'text/plain': load().then((text) => new Blob([text], { type: 'text/plain' })) })]);
}

/**
 * Copies `value` (or what `value()` answers) to the clipboard; reads 'Copied' for two seconds
 * after. `what` names it for screen readers.
 */
export function CopyButton({ value, what, ...rest }: { value: string | (() => Promise<string>); what: string } & Omit<ButtonProps, 'value'>) {
  const { t } = useTexts();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      if (typeof value === 'string') await navigator.clipboard.writeText(value);
      else await copyWhenLoaded(value);
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
