import { Button, CloseButton, Dialog as ChakraDialog, Portal } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useTexts } from '../i18n';

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: string;
  children?: ReactNode;
  /** Buttons of the footer; a Close button when left out. */
  footer?: ReactNode;
  role?: 'dialog' | 'alertdialog';
  /** Wider for a table (the default fits a form). */
  size?: ChakraDialog.RootProps['size'];
  /**
   * Whether a click or focus outside closes it (the default). A dialog opened as another one closes
   * (a job's progress after its start) says false: the closing one hands focus back outside it.
   */
  closeOnInteractOutside?: boolean;
}

/** A modal with a title (its accessible name), a body and a footer; Escape and the backdrop close it. */
export function Dialog({ open, onClose, title, children, footer, role = 'dialog', size, closeOnInteractOutside = true }: DialogProps) {
  const { t } = useTexts();
  return (
    <ChakraDialog.Root open={open} onOpenChange={(event) => !event.open && onClose()} role={role} placement="center" size={size} closeOnInteractOutside={closeOnInteractOutside}>
      <Portal>
        <ChakraDialog.Backdrop />
        <ChakraDialog.Positioner>
          <ChakraDialog.Content mx="4">
            <ChakraDialog.Header>
              <ChakraDialog.Title>{title}</ChakraDialog.Title>
            </ChakraDialog.Header>
            {children && <ChakraDialog.Body>{children}</ChakraDialog.Body>}
            <ChakraDialog.Footer>
              {footer ?? <Button variant="outline" onClick={onClose}>{t('common.close')}</Button>}
            </ChakraDialog.Footer>
            <ChakraDialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('common.close')} />
            </ChakraDialog.CloseTrigger>
          </ChakraDialog.Content>
        </ChakraDialog.Positioner>
      </Portal>
    </ChakraDialog.Root>
  );
}

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message?: ReactNode;
  confirmLabel?: string;
  /** A destructive action gets a red button. */
  destructive?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Asks before an action (a delete, say); the confirm button stays busy while the action runs. */
export function ConfirmDialog({ open, title, message, confirmLabel, destructive, busy, onConfirm, onCancel }: ConfirmDialogProps) {
  const { t } = useTexts();
  return (
    <Dialog
      open={open}
      onClose={onCancel}
      title={title}
      role="alertdialog"
      footer={
        <>
          <Button variant="outline" onClick={onCancel} disabled={busy}>{t('common.cancel')}</Button>
          <Button colorPalette={destructive ? 'red' : 'blue'} onClick={onConfirm} loading={busy}>{confirmLabel ?? t('common.confirm')}</Button>
        </>
      }
    >
      {message}
    </Dialog>
  );
}
