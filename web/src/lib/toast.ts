import { createToaster } from '@chakra-ui/react';
import { errorText } from './api';

/**
 * Document 1, section 9: one toast at a time, shown for 5000 ms; a dismissed toast is removed
 * after 1,000,000 ms; F8 focuses the notification area. (Swiping right by 50 px dismisses: Toaster.tsx.)
 */
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const toaster = createToaster({ placement: 'bottom-end', max: 1, duration: 5000, removeDelay: TOAST_REMOVE_DELAY_MS, hotkey: ['F8'] });

export interface ToastMessage {
  title: string;
  description?: string;
  type?: 'success' | 'error' | 'info';
  /** How long it stays, when not the usual 5000 ms. */
  duration?: number;
}

/** A new toast replaces the one on screen instead of queueing behind it. */
export function notify({ title, description, type = 'info', duration }: ToastMessage): void {
  toaster.remove();
  toaster.create({ title, description, type, closable: true, ...(duration ? { duration } : {}) });
}

/** The one way to report a failed call: the server's `error` field, else the spec's default text. */
export function notifyError(title: string, error: unknown, fallback: string): void {
  notify({ title, description: errorText(error, fallback), type: 'error' });
}
