import { createToaster } from '@chakra-ui/react';

/** Document 1, section 9: one toast at a time, shown for 5000 ms; F8 focuses the notification area. */
export const toaster = createToaster({ placement: 'bottom-end', max: 1, duration: 5000, hotkey: ['F8'] });

export interface ToastMessage {
  title: string;
  description?: string;
  type?: 'success' | 'error' | 'info';
}

/** A new toast replaces the one on screen instead of queueing behind it. */
export function notify({ title, description, type = 'info' }: ToastMessage): void {
  toaster.remove();
  toaster.create({ title, description, type, closable: true });
}
