/**
 * The store suite covers every store method: each method of each repository
 * interface in `src/store/*-store.ts` (and of `Store` itself but `close`) is called in at
 * least one case of `test/store/*.cases.ts`, as `.<repository>.<method>(`
 * (e.g. `store.messages.page(` or `tx.rooms.lock(`). A method added without a
 * case fails here, by name. An interface that a repository's interface extends is that repository's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';

const STORE_DIR = join(import.meta.dirname, '../../../src/store');
const CASES_DIR = join(import.meta.dirname, '../../store');

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

function interfaces(source: ts.SourceFile): ts.InterfaceDeclaration[] {
  return source.statements.filter(ts.isInterfaceDeclaration);
}

function methodNames(decl: ts.InterfaceDeclaration): string[] {
  return decl.members.filter(ts.isMethodSignature).map((m) => m.name.getText());
}

/** `Store`'s repository properties: interface name → property name (`MessagesRepo` → `messages`). */
function repositoryProperties(): Map<string, string> {
  const store = interfaces(parse(join(STORE_DIR, 'store.ts'))).find((d) => d.name.text === 'Store')!;
  const out = new Map<string, string>();
  for (const member of store.members) {
    if (ts.isPropertySignature(member) && member.type && ts.isTypeReferenceNode(member.type)) {
      out.set(member.type.typeName.getText(), member.name.getText());
    }
  }
  return out;
}

it('every method of every store interface has a case in test/store/*.cases.ts', () => {
  const cases = readdirSync(CASES_DIR)
    .filter((f) => f.endsWith('.cases.ts'))
    .map((f) => readFileSync(join(CASES_DIR, f), 'utf8'))
    .join('\n');
  const called = (pattern: string) => new RegExp(pattern).test(cases);
  const properties = repositoryProperties();
  const files = readdirSync(STORE_DIR).filter((f) => f.endsWith('-store.ts'));
  // An interface a repository interface extends (`ReportsRepo extends ReportRoomReads`) is placed as that repository.
  const extendedBy = new Map<string, string>();
  for (const file of files) {
    for (const decl of interfaces(parse(join(STORE_DIR, file)))) {
      for (const clause of decl.heritageClauses ?? []) {
        for (const base of clause.types) extendedBy.set(base.expression.getText(), decl.name.text);
      }
    }
  }
  const propertyOf = (name: string, seen = new Set<string>()): string | undefined => {
    const own = properties.get(name);
    if (own) return own;
    const derived = extendedBy.get(name);
    if (!derived || seen.has(derived)) return undefined;
    seen.add(derived);
    return propertyOf(derived, seen);
  };
  const missing: string[] = [];
  const unplaced: string[] = [];
  let checked = 0;
  for (const file of files) {
    for (const decl of interfaces(parse(join(STORE_DIR, file)))) {
      const methods = methodNames(decl);
      if (methods.length === 0) continue;
      const property = propertyOf(decl.name.text);
      if (!property) {
        unplaced.push(`${file}: ${decl.name.text}`);
        continue;
      }
      for (const method of methods) {
        checked++;
        if (!called(`\\.${property}\\.${method}\\(`)) missing.push(`${decl.name.text}.${method} (store.${property}.${method})`);
      }
    }
  }
  const store = interfaces(parse(join(STORE_DIR, 'store.ts'))).find((d) => d.name.text === 'Store')!;
  // `close` ends the store, so no case can run after it on the shared store: each runner's teardown is its test.
  for (const method of methodNames(store).filter((m) => m !== 'close')) {
    checked++;
    if (!called(`\\b(?:store|s|tx|other|second)\\.${method}[(<]`)) missing.push(`Store.${method}`);
  }
  expect(checked).toBeGreaterThan(80);
  expect({ missing, unplaced }).toEqual({ missing: [], unplaced: [] });
});
