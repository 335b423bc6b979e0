import { Fragment, memo, type ReactNode } from 'react';
import { parseInline, type MdNode } from '../lib/markdown.js';

function render(nodes: MdNode[]): ReactNode[] {
  return nodes.map((node, i) => {
    switch (node.type) {
      case 'text':
        return <Fragment key={i}>{node.text}</Fragment>;
      case 'code':
        return <code key={i}>{node.text}</code>;
      case 'bold':
        return <strong key={i}>{render(node.children)}</strong>;
      case 'italic':
        return <em key={i}>{render(node.children)}</em>;
      case 'strike':
        return <s key={i}>{render(node.children)}</s>;
      case 'link':
        return (
          <a key={i} href={node.href} target="_blank" rel="noopener noreferrer nofollow">
            {render(node.children)}
          </a>
        );
    }
  });
}

/** A message's text with the widget's basic markdown (lib/markdown.ts); React escapes every piece of text. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return <>{render(parseInline(text))}</>;
});
