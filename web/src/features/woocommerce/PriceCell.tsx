import { Stack, Text } from '@chakra-ui/react';
import { useTexts } from '../../i18n';
import { shownPrice } from './prices';

/** The regular price, and under it the sale price when there is one. */
export function PriceCell({ regular, sale }: { regular: string | null; sale: string | null }) {
  const { t, format } = useTexts();
  const hasSale = Boolean(sale?.trim());
  return (
    <Stack gap="0">
      <Text>{shownPrice(format, regular)}</Text>
      {hasSale && <Text fontSize="xs" color="fg.muted">{t('woocommerce.salePrice', { price: shownPrice(format, sale) })}</Text>}
    </Stack>
  );
}
