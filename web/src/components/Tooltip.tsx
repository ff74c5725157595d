import { Portal, Tooltip as ChakraTooltip } from '@chakra-ui/react';
import { useState, type ReactElement } from 'react';
import { flushSync } from 'react-dom';

/**
 * Document 1, section 9: a tooltip opens 700 ms after the pointer rests on its trigger; within
 * 300 ms of another tooltip closing (the skip delay) the next one opens at once.
 */
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

let lastClosedAt = Number.NEGATIVE_INFINITY;

export function Tooltip({ content, children }: { content: string; children: ReactElement }) {
  const [openDelay, setOpenDelay] = useState(TOOLTIP_DELAY_MS);
  // The delay is chosen as the pointer arrives, before the tooltip machine starts its timer.
  const choose = () => flushSync(() => setOpenDelay(Date.now() - lastClosedAt < TOOLTIP_SKIP_DELAY_MS ? 0 : TOOLTIP_DELAY_MS));
  return (
    <ChakraTooltip.Root
      openDelay={openDelay}
      closeDelay={0}
      onOpenChange={(event) => {
        if (!event.open) lastClosedAt = Date.now();
      }}
    >
      <ChakraTooltip.Trigger asChild onPointerEnter={choose}>
        {children}
      </ChakraTooltip.Trigger>
      <Portal>
        <ChakraTooltip.Positioner>
          <ChakraTooltip.Content>{content}</ChakraTooltip.Content>
        </ChakraTooltip.Positioner>
      </Portal>
    </ChakraTooltip.Root>
  );
}
