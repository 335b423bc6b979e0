/**
 * The console's wire types, generated from the committed OpenAPI document by openapi-typescript, so the console
 * never re-types a REST shape by hand (console/src/api/types.ts aliases these). `npm run openapi` writes the file;
 * test/lib/openapi-types.unit.test.ts fails when the committed file differs from a fresh generation.
 */
import openapiTS, { astToString } from 'openapi-typescript';
import { readFileSync } from 'node:fs';

export const OPENAPI_TYPES_FILE = new URL('../console/src/api/openapi.d.ts', import.meta.url);
const OPENAPI_FILE = new URL('../openapi.json', import.meta.url);

const HEADER =
  '/**\n' +
  ' * Generated from openapi.json by openapi-typescript (`npm run openapi`). Do not edit: change the route schemas\n' +
  ' * in src/wire/ and regenerate. console/src/api/types.ts names the shapes the console reads.\n' +
  ' */\n\n';

/** The declaration file's text for the given OpenAPI document (the committed one by default). */
export async function openApiTypes(document: string = readFileSync(OPENAPI_FILE, 'utf8')): Promise<string> {
  const ast = await openapiTS(document, { silent: true });
  return HEADER + astToString(ast);
}
