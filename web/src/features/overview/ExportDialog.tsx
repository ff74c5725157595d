import { Alert, Button, Checkbox, Input } from '@chakra-ui/react';
import { useState } from 'react';
import { Dialog } from '../../components/Dialog';
import { Form, FormField } from '../../components/Form';
import { useTexts } from '../../i18n';
import { passphraseProblem } from './migration';
import type { ExportChoice } from './mutations';

/** A file's passphrase is not this site's password: browsers and password managers are asked not to fill or keep it. */
export const NOT_A_SIGN_IN = { autoComplete: 'off', 'data-1p-ignore': true, 'data-lpignore': 'true' } as const;

/**
 * Issue 34: an export is encrypted with a passphrase typed twice (at least 12 characters); the
 * plain file only by ticking its box, which says what anyone holding it can read.
 */
export function ExportDialog({ onExport, onClose }: { onExport: (choice: ExportChoice) => void; onClose: () => void }) {
  const { t } = useTexts();
  const [passphrase, setPassphrase] = useState('');
  const [again, setAgain] = useState('');
  const [plain, setPlain] = useState(false);
  const [tried, setTried] = useState(false);
  const problem = plain ? null : passphraseProblem(passphrase, again);

  const submit = () => {
    setTried(true);
    if (problem) return;
    onExport(plain ? { plain: true } : { passphrase });
  };

  return (
    <Dialog
      open
      onClose={onClose}
      title={t('overview.migration.exportTitle')}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>{t('common.cancel')}</Button>
          <Button colorPalette={plain ? 'orange' : 'blue'} type="submit" form="export-database">
            {plain ? t('overview.migration.exportPlain') : t('overview.migration.exportEncrypted')}
          </Button>
        </>
      }
    >
      <Form id="export-database" onSubmit={submit} gap="4" noValidate>
        {!plain && (
          <>
            <FormField label={t('overview.migration.passphrase')} required helper={t('overview.migration.passphraseHelper')} error={tried && problem === 'tooShort' ? t('overview.migration.passphraseTooShort') : null}>
              <Input name="passphrase" type="password" value={passphrase} onChange={(event) => setPassphrase(event.target.value)} maxLength={1024} {...NOT_A_SIGN_IN} />
            </FormField>
            <FormField label={t('overview.migration.passphraseAgain')} required error={tried && problem === 'differ' ? t('overview.migration.passphrasesDiffer') : null}>
              <Input name="passphraseAgain" type="password" value={again} onChange={(event) => setAgain(event.target.value)} maxLength={1024} {...NOT_A_SIGN_IN} />
            </FormField>
          </>
        )}
        <Checkbox.Root checked={plain} onCheckedChange={(event) => setPlain(event.checked === true)} data-testid="export-plain">
          <Checkbox.HiddenInput />
          <Checkbox.Control />
          <Checkbox.Label>{t('overview.migration.plain')}</Checkbox.Label>
        </Checkbox.Root>
        {plain && (
          <Alert.Root status="warning" data-testid="export-plain-warning">
            <Alert.Indicator />
            <Alert.Description>{t('overview.migration.plainWarning')}</Alert.Description>
          </Alert.Root>
        )}
      </Form>
    </Dialog>
  );
}
