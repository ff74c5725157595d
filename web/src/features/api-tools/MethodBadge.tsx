import { Badge } from '@chakra-ui/react';
import type { Method } from '../../lib/api';
import { methodPalette } from './model';

/** An HTTP method, in its colour (GET green, POST blue, PUT orange, PATCH purple, DELETE red). */
export function MethodBadge({ method }: { method: string }) {
  return (
    <Badge colorPalette={methodPalette[method as Method] ?? 'gray'} fontFamily="mono" flexShrink="0" data-testid="method">
      {method}
    </Badge>
  );
}
