import type { VirtualItem, Virtualizer } from '@tanstack/react-virtual';
import type { ReactNode } from 'react';

/**
 * One row of a virtualized list (the conversation, the queue): placed by the virtualizer with a transform
 * (set through the DOM, which the CSP allows), measured by it once rendered, and numbered for assistive
 * technology, which otherwise sees only the rows in the DOM.
 */
export function VirtualRow({
  item,
  virtualizer,
  className,
  setSize,
  position,
  children,
}: {
  item: VirtualItem;
  virtualizer: Virtualizer<HTMLDivElement, Element>;
  className: string;
  setSize: number;
  /** 1-based place in the whole list; none for a row that is not an item (the "load older" row). */
  position: number | undefined;
  children: ReactNode;
}) {
  return (
    <li
      data-index={item.index}
      ref={virtualizer.measureElement}
      className={className}
      style={{ transform: `translateY(${item.start}px)` }}
      aria-setsize={setSize}
      aria-posinset={position}
    >
      {children}
    </li>
  );
}
