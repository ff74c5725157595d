/**
 * The shared components on one page, for components.test.ts: each wired to a log the test reads,
 * so the test drives them as a person would and checks what they did. Not part of the app.
 */
import { Button, ChakraProvider, defaultSystem, Input, Stack } from '@chakra-ui/react';
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { CopyButton } from '../../src/components/CopyButton';
import { DataTable } from '../../src/components/DataTable';
import { ConfirmDialog, Dialog } from '../../src/components/Dialog';
import { Form, FormField } from '../../src/components/Form';
import { Toaster } from '../../src/components/Toaster';
import { ApiError } from '../../src/lib/api';
import { notifyError } from '../../src/lib/toast';
import { loadTexts, shellBundles } from '../../src/i18n';

const mappings = [
  { productName: 'Netflix 1 month', woocommerceId: 101 },
  { productName: 'Нетфликс 1/2?', woocommerceId: 102 },
];

function Gallery() {
  const [log, setLog] = useState<string[]>([]);
  const note = (entry: string) => setLog((entries) => [...entries, entry]);
  const [confirming, setConfirming] = useState(false);
  const [showing, setShowing] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);

  return (
    <Stack p="6" gap="6" maxW="xl">
      <Button onClick={() => setConfirming(true)}>Delete mapping</Button>
      <ConfirmDialog
        open={confirming}
        title="Delete Netflix 1 month?"
        message="The mapping is removed from the shop sync."
        confirmLabel="Delete"
        destructive
        onConfirm={() => {
          note('confirmed');
          setConfirming(false);
        }}
        onCancel={() => {
          note('cancelled');
          setConfirming(false);
        }}
      />

      <Button onClick={() => setShowing(true)}>Show details</Button>
      <Dialog open={showing} onClose={() => setShowing(false)} title="Details">Body text</Dialog>

      <Form
        onSubmit={() => {
          if (name.trim().length < 3) return setError('At least 3 characters');
          setError(null);
          note(`submitted ${name}`);
        }}
      >
        <FormField label="Product name" required error={error}>
          <Input value={name} onChange={(event) => setName(event.target.value)} />
        </FormField>
        <Button type="submit">Save</Button>
      </Form>

      <DataTable
        caption="Mappings"
        columns={[
          { key: 'productName', header: 'Product', cell: (row) => row.productName },
          { key: 'woocommerceId', header: 'WooCommerce ID', cell: (row) => row.woocommerceId },
        ]}
        rows={mappings}
        rowKey={(row) => row.productName}
      />

      <CopyButton value="Нетфликс 1/2?" what="product name" />

      <Button onClick={() => notifyError('Sync Failed', new ApiError(502, JSON.stringify({ error: 'WooCommerce answered 401' })), 'Could not sync')}>
        Fail with a server error
      </Button>
      <Button onClick={() => notifyError('Sync Failed', new ApiError(502, '<html>Bad Gateway</html>'), 'Could not sync')}>
        Fail without one
      </Button>
      <Toaster />

      <ul data-testid="log">
        {log.map((entry, index) => <li key={index}>{entry}</li>)}
      </ul>
    </Stack>
  );
}

// The shared components' texts are the shell's part of the catalogue, fetched first as the app does.
void loadTexts(...shellBundles).then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <ChakraProvider value={defaultSystem}>
        <Gallery />
      </ChakraProvider>
    </StrictMode>,
  ),
);
