import { useState } from 'react';
import { embedSnippet } from '../lib/format.js';
import { SiteUrlNotice, useWidgetServer } from '../lib/widget-server.js';

export function EmbedPage() {
  const [copied, setCopied] = useState<string | null>(null);
  const [previewKey, setPreviewKey] = useState(0);
  // The preview frames `/livechat`; a server that does not serve the widget gets a sentence, not a JSON 404 in a frame.
  const widget = useWidgetServer(previewKey);
  const snippet = embedSnippet(widget.data?.serverUrl ?? window.location.origin);

  async function copy() {
    try {
      await navigator.clipboard.writeText(snippet);
      setCopied('Copied to the clipboard.');
    } catch {
      setCopied('Copying is blocked here: select the text and copy it.');
    }
  }

  return (
    <section className="page" aria-labelledby="embed-title">
      <h1 id="embed-title">Embed the widget</h1>
      <p>Paste this before the closing &lt;/body&gt; tag of every page where visitors should be able to chat with you.</p>
      <label htmlFor="embed-snippet">Embed snippet</label>
      <SiteUrlNotice serverUrl={widget.data?.serverUrl} />
      <textarea id="embed-snippet" className="code" readOnly rows={9} value={snippet} onFocus={(e) => e.currentTarget.select()} />
      <div className="row">
        <button type="button" className="primary small" onClick={() => void copy()}>
          Copy snippet
        </button>
        <span role="status" className="muted small">
          {copied}
        </span>
      </div>
      <h2>Live preview</h2>
      <p className="muted">
        The widget as your visitors see it, with the current settings.{' '}
        <button type="button" className="ghost small" onClick={() => setPreviewKey((k) => k + 1)}>
          Reload preview
        </button>
      </p>
      {/* Popout mode: the widget renders standalone (without the embed script's host page around it). */}
      {widget.data?.served === true && <iframe key={previewKey} className="widget-preview" title="Live chat widget preview" src="/livechat?mode=popout" />}
      {widget.data?.served === false && <p className="notice">This server does not serve the widget at /livechat, so there is nothing to preview.</p>}
    </section>
  );
}
