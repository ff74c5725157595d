import { Button, Code, Flex, Stack, Text } from '@chakra-ui/react';
import { useState, type ReactNode } from 'react';
import { useTexts } from '../i18n';
import { CopyButton } from './CopyButton';
import { ConfirmDialog } from './Dialog';

export interface SecretRotation {
  /** The button's and the confirmation's label. */
  label: string;
  title: string;
  message: ReactNode;
  /** The rotation itself (a mutation's mutateAsync): its own callbacks tell how it went; the dialog closes either way. */
  run: () => Promise<unknown>;
  busy: boolean;
}

/**
 * A stored secret as an admin handles it: masked ('••••' and its last four), Copy asking the server
 * for the whole value at the click (it is never on the page), Rotate after a confirmation, and a
 * line under it saying when it was last rotated. `testId` prefixes its parts: -masked, -unreadable, -rotated.
 */
export function RotatableSecret({ header, masked, unreadable, rotated, copyWhat, reveal, rotation, testId }: {
  /** What the outside system sends it as, e.g. the header X-Webhook-Secret. */
  header?: string;
  /** The masked value; undefined while it loads, '' when none is stored. */
  masked: string | undefined;
  /** Why the stored value cannot be opened (its data key is missing), or null. */
  unreadable?: string | null;
  /** When it was last rotated (or that it never was), as the page words it. */
  rotated?: string;
  copyWhat: string;
  reveal: () => Promise<string>;
  /** Left out where no rotate route exists. */
  rotation?: SecretRotation;
  testId: string;
}) {
  const { t } = useTexts();
  const [confirming, setConfirming] = useState(false);
  const confirm = async () => {
    if (!rotation || rotation.busy) return;
    try {
      await rotation.run();
    } catch {
      // Reported by the mutation's own onError (a toast with the server's words).
    } finally {
      setConfirming(false);
    }
  };
  return (
    <Stack gap="2">
      <Flex gap="2" align="center" wrap="wrap">
        {header && <Code>{header}</Code>}
        <Text fontFamily="mono" data-testid={`${testId}-masked`} flex="1" minW="24">{masked ?? '…'}</Text>
        <Flex gap="2">
          <CopyButton value={reveal} what={copyWhat} disabled={!masked} />
          {/* An unreadable secret (its data key is gone) can still be replaced. */}
          {rotation && (
            <Button size="xs" variant="outline" colorPalette="red" onClick={() => setConfirming(true)} disabled={masked === undefined}>{rotation.label}</Button>
          )}
        </Flex>
      </Flex>
      {unreadable && <Text fontSize="sm" color="fg.error" data-testid={`${testId}-unreadable`}>{t('common.secretUnreadable', { reason: unreadable })}</Text>}
      {rotated && <Text fontSize="xs" color="fg.muted" data-testid={`${testId}-rotated`}>{rotated}</Text>}
      {rotation && (
        <ConfirmDialog
          open={confirming}
          title={rotation.title}
          message={rotation.message}
          confirmLabel={rotation.label}
          destructive
          busy={rotation.busy}
          onConfirm={() => void confirm()}
          onCancel={() => !rotation.busy && setConfirming(false)}
        />
      )}
    </Stack>
  );
}
