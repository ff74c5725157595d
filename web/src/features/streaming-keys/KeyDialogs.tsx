import { Box, Button, Center, Flex, Image, Input, Spinner, Stack, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { ConfirmDialog, Dialog } from '../../components/Dialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Form, FormField } from '../../components/Form';
import { useTexts } from '../../i18n';
import { errorText } from '../../lib/api';
import { notify } from '../../lib/toast';
import type { StreamingKeyView } from './api';
import { ExpiryFields, useFailureToast } from './fields';
import { customerIdValue, expiryOf, noExpiry } from './forms';
import { useDeleteKey, useExtendKey, useGenerateQr, useUpdateCustomerId } from './mutations';

interface KeyDialogProps {
  /** null: the key is gone (deleted meanwhile) or was never chosen. */
  keyView: StreamingKeyView | null;
  onClose: () => void;
}

/** Document 3 §4/§5: months or a custom date (each clears the other); 'No key selected' without a key. */
export function ExtendDialog({ keyView, onClose }: KeyDialogProps) {
  const { t, format } = useTexts();
  const failed = useFailureToast();
  const [choice, setChoice] = useState(noExpiry);
  const [problem, setProblem] = useState<string | null>(null);
  const extend = useExtendKey({
    onSuccess: (reply) => {
      notify({ title: t('streamingKeys.extended'), description: t('streamingKeys.extendedBody', { key: reply.data.key, date: format.dateTime(reply.data.expiresAt) }), type: 'success' });
      onClose();
    },
    onError: failed('streamingKeys.extendFailed'),
  });
  const submit = () => {
    if (!keyView) return setProblem(t('streamingKeys.noKeySelected'));
    const expiry = expiryOf(choice);
    if (!expiry) return setProblem(t('streamingKeys.selectExpiry'));
    setProblem(null);
    extend.mutate({ keyId: keyView.id, ...expiry });
  };
  return (
    <Dialog
      open
      onClose={onClose}
      title={t('streamingKeys.extendTitle')}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>{t('common.cancel')}</Button>
          <Button colorPalette="blue" type="submit" form="extend-key" loading={extend.isPending} disabled={!keyView}>{t('streamingKeys.extend')}</Button>
        </>
      }
    >
      <Form id="extend-key" onSubmit={submit} gap="4">
        {keyView ? (
          <Text>{t('streamingKeys.currentExpiry', { key: keyView.key, date: format.dateTime(keyView.expiresAt) })}</Text>
        ) : (
          <Text color="fg.error" data-testid="no-key-selected">{t('streamingKeys.noKeySelected')}</Text>
        )}
        <ExpiryFields value={choice} onChange={setChoice} minDate={keyView?.expiresAt.slice(0, 10)} />
        {problem && <Text color="fg.error" role="alert">{problem}</Text>}
      </Form>
    </Dialog>
  );
}

/** Document 3 §5: a blank customer id is sent as null. */
export function CustomerIdDialog({ keyView, onClose }: KeyDialogProps) {
  const { t } = useTexts();
  const failed = useFailureToast();
  const [text, setText] = useState(keyView?.customerId ?? '');
  const update = useUpdateCustomerId({
    onSuccess: (reply) => {
      notify({ title: t('streamingKeys.customerSaved'), description: t('streamingKeys.customerSavedBody', { key: reply.data.key, customer: reply.data.customerId ?? t('streamingKeys.customerCleared') }), type: 'success' });
      onClose();
    },
    onError: failed('streamingKeys.customerFailed'),
  });
  return (
    <Dialog
      open
      onClose={onClose}
      title={t('streamingKeys.customerTitle')}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>{t('common.cancel')}</Button>
          <Button colorPalette="blue" type="submit" form="customer-id" loading={update.isPending} disabled={!keyView}>{t('common.save')}</Button>
        </>
      }
    >
      <Form id="customer-id" onSubmit={() => keyView && update.mutate({ id: keyView.id, customerId: customerIdValue(text) })}>
        {keyView ? <Text fontFamily="mono">{keyView.key}</Text> : <Text color="fg.error">{t('streamingKeys.noKeySelected')}</Text>}
        <FormField label={t('streamingKeys.customerId')} helper={t('streamingKeys.customerHelper')}>
          <Input name="customerId" value={text} onChange={(event) => setText(event.target.value)} inputMode="numeric" maxLength={64} autoComplete="off" />
        </FormField>
      </Form>
    </Dialog>
  );
}

/** The image as a PNG on the clipboard; false when the browser refuses (no permission, no ClipboardItem). */
async function copyImage(dataUrl: string): Promise<boolean> {
  try {
    const blob = await (await fetch(dataUrl)).blob();
    await navigator.clipboard.write([new ClipboardItem({ [blob.type || 'image/png']: blob })]);
    return true;
  } catch {
    return false;
  }
}

/** Generated when opened (document 3 §7 generate-qr): the image, copy image and download. */
export function QrDialog({ keyView, onClose }: KeyDialogProps) {
  const { t } = useTexts();
  const failed = useFailureToast();
  const generate = useGenerateQr({ onError: failed('streamingKeys.qrFailed') });
  const { mutate } = generate;
  const keyId = keyView?.id;
  useEffect(() => {
    if (keyId !== undefined) mutate(keyId);
  }, [keyId, mutate]);
  const image = generate.data?.data.qrCodeUrl ?? generate.data?.data.qrCodeData ?? null;
  const copy = async () => {
    if (!image) return;
    if (await copyImage(image)) notify({ title: t('streamingKeys.imageCopied'), description: t('streamingKeys.imageCopiedBody'), type: 'success' });
    else notify({ title: t('streamingKeys.error'), description: t('streamingKeys.copyQrFailed'), type: 'error' });
  };
  return (
    <Dialog
      open
      onClose={onClose}
      title={t('streamingKeys.qrTitle')}
      footer={
        <Flex gap="2" wrap="wrap" justify="flex-end">
          {image && keyView && (
            <Button asChild variant="outline">
              <a href={image} download={`${keyView.key}.png`}>{t('streamingKeys.download')}</a>
            </Button>
          )}
          <Button colorPalette="blue" onClick={() => void copy()} disabled={!image}>{t('streamingKeys.copyImage')}</Button>
          <Button variant="outline" onClick={onClose}>{t('common.close')}</Button>
        </Flex>
      }
    >
      <Stack gap="3" align="center">
        {!keyView && <Text color="fg.error">{t('streamingKeys.noKeySelected')}</Text>}
        {keyView && <Text fontFamily="mono" wordBreak="break-all">{keyView.key}</Text>}
        {generate.isPending && (
          <Center gap="3" role="status" minH="48"><Spinner size="sm" /><Text>{t('streamingKeys.qrGenerating')}</Text></Center>
        )}
        {generate.isError && <ErrorAlert title={t('streamingKeys.qrFailed')} description={errorText(generate.error, generate.error.message)} />}
        {image && keyView && (
          <Box bg="white" p="2" borderRadius="md" borderWidth="1px">
            <Image src={image} alt={t('streamingKeys.qrAlt', { key: keyView.key })} boxSize={{ base: '56', sm: '64' }} data-testid="qr-image" />
          </Box>
        )}
      </Stack>
    </Dialog>
  );
}

export function DeleteKeyDialog({ keyView, onClose }: KeyDialogProps) {
  const { t } = useTexts();
  const failed = useFailureToast();
  const remove = useDeleteKey({
    onSuccess: (_reply, id) => {
      notify({ title: t('streamingKeys.deleted'), description: t('streamingKeys.deletedBody', { key: keyView?.key ?? `#${id}` }), type: 'success' });
      onClose();
    },
    onError: (error) => {
      failed('streamingKeys.deleteFailed')(error);
      onClose();
    },
  });
  return (
    <ConfirmDialog
      open
      title={t('streamingKeys.deleteTitle')}
      message={keyView ? t('streamingKeys.deleteMessage', { key: keyView.key, profile: keyView.profileNumber, email: keyView.email }) : t('streamingKeys.noKeySelected')}
      confirmLabel={t('streamingKeys.delete')}
      destructive
      busy={remove.isPending}
      onConfirm={() => keyView && !remove.isPending && remove.mutate(keyView.id)}
      onCancel={() => !remove.isPending && onClose()}
    />
  );
}
