import type { Locator, Page } from 'playwright-core';
import { openToasts } from './support';

/** The open toast with this title (one at a time), waited for. */
export async function toast(page: Page, title: string): Promise<Locator> {
  const found = openToasts(page).filter({ hasText: title });
  await found.waitFor({ timeout: 15_000 });
  return found;
}

/** /streaming-keys with its slot overview shown. */
export async function openKeysTab(page: Page, appUrl: string): Promise<void> {
  await page.goto(`${appUrl}/streaming-keys`);
  await page.getByRole('heading', { level: 1, name: 'Streaming Keys' }).waitFor();
  await page.getByTestId('slots-NFX').waitFor();
}

/** The create dialog as a person fills it: service, a new e-mail, months or a date, profiles, and the shared password. */
export async function createKeys(page: Page, form: { service: string; email: string; months?: string; date?: string; profiles: string }): Promise<void> {
  await page.getByRole('button', { name: 'Create Key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Keys' });
  await dialog.getByLabel('Service', { exact: true }).selectOption(form.service);
  await dialog.getByLabel('Account e-mail', { exact: true }).fill(form.email);
  if (form.months) await dialog.getByLabel('Months', { exact: true }).selectOption(form.months);
  if (form.date) await dialog.getByLabel('Custom date', { exact: true }).fill(form.date);
  await dialog.getByLabel('Profiles', { exact: true }).selectOption(form.profiles);
  await dialog.getByLabel('Account password (optional)', { exact: true }).fill('Shared-Pass-2026');
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  await toast(page, 'Keys Created');
  await dialog.waitFor({ state: 'hidden' });
}
