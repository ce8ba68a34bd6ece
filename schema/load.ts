/**
 * Loader for `schema/openapi.yaml`: the parsed document, the operations the host mounts,
 * their compiled request validators, the error catalogue, and the translation of Ajv
 * errors into the API's `ValidationErrorItem` shape.
 *
 * The YAML file is the single source of request shapes. Validators are compiled once
 * (lazily, on the first `getOperations()` call) with Ajv 2020-12 in strict mode, so a
 * schema mistake fails loudly at start-up rather than letting a request through.
 *
 * How component references resolve: OpenAPI writes `#/components/schemas/X`. Those
 * pointers mean nothing to a JSON Schema validator, so every component schema is copied
 * into one document `{ $id: COMPONENTS_ID, $defs: {...} }` that is added to each Ajv
 * instance once, and every `$ref` is rewritten to `COMPONENTS_ID#/$defs/X`.
 *
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { patternWords } from './pattern-words.js';
import { inSingleFile, readAssetText } from '../host/assets.js';
import {
  Ajv2020,
  type ErrorObject,
  type ValidateFunction,
  type AnySchemaObject,
} from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS with `exports.default`; under NodeNext the default import is the
// module object, so reach for `.default` when it is there.
type FormatsPlugin = typeof addFormatsModule.default;
const addFormats: FormatsPlugin =
  (addFormatsModule as unknown as { default?: FormatsPlugin }).default ??
  (addFormatsModule as unknown as FormatsPlugin);

/** Absolute path of the OpenAPI document. */
export const OPENAPI_PATH = fileURLToPath(new URL('./openapi.yaml', import.meta.url));

/**
 * The same document as JSON, which `npm run build` writes beside the compiled module
 * (scripts/copy-assets.mjs). Parsing it takes a few ms where the YAML takes about half a
 * second, which a restarting server's readiness notices; from source (tsx) it is absent.
 */
const OPENAPI_JSON_PATH = fileURLToPath(new URL('./openapi.json', import.meta.url));

/** `$id` of the synthetic document that holds every component schema under `$defs`. */
export const COMPONENTS_ID = 'https://wakeup.invalid/schemas/components.json';

/** The parsed OpenAPI document (plain JSON data). Typed loosely: callers read known keys. */
export type OpenApiDocument = Record<string, any>;

/** Credential kinds an operation may accept (`x-credentials`). */
export type CredentialKind = 'api_key' | 'app_session' | 'web_session';

/** Where a request value sits. */
export type ValueLocation = 'body' | 'query' | 'path' | 'header';

/** One problem in a validation error (schema `ValidationErrorItem`). */
export interface ValidationErrorItem {
  /** Dotted path of the offending value, e.g. `retry_policy.offsets_minutes.0`; `''` for the whole body. */
  field: string;
  /** Where the value sits. */
  in: ValueLocation;
  /** Short machine word: required, type, enum, format, pattern, minimum, maximum, min_length, ... */
  code: string;
  /** Human sentence; not for branching. */
  message: string;
}

/** One operation of the document, ready for the host's router and middleware. */
export interface OperationInfo {
  operationId: string;
  /** Upper-case HTTP method. */
  method: string;
  /** OpenAPI path, e.g. `/phone-numbers/{phone_number_id}`. */
  path: string;
  /** `site` for the /dev paths (mounted at the site root), `api` for /api/v1. */
  server: 'api' | 'site';
  /** No credentials needed (security `[]`, or a requirement list that includes `{}`). */
  public: boolean;
  /** Credential kinds accepted (`x-credentials`; all three when absent). */
  credentials: CredentialKind[];
  /** API-key scope required (`x-scope`; read for GET/HEAD, write otherwise); null when API keys are refused or the operation is public. */
  scope: 'read' | 'write' | 'export' | 'ops' | null;
  /** `x-idempotent: true`: accepts Idempotency-Key. */
  idempotent: boolean;
  /** Validates the JSON body (no coercion, no defaults). */
  validateBody?: ValidateFunction;
  /** Validates the query as an object of parameters; coerces strings to numbers/booleans and applies defaults in place. */
  validateQuery?: ValidateFunction;
  /** Validates the path parameters as an object. */
  validateParams?: ValidateFunction;
}

/** One entry of the error catalogue (`x-error-codes`). */
export interface CatalogueEntry {
  code: string;
  status: number;
  title: string;
  description: string;
}

const HTTP_METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'] as const;
const ALL_CREDENTIALS: CredentialKind[] = ['api_key', 'app_session', 'web_session'];

let documentCache: OpenApiDocument | undefined;
let operationsCache: Map<string, OperationInfo> | undefined;

/**
 * Whether the document is a built one (`npm run build`'s openapi.json, or the single file's
 * copy) rather than the YAML source. A built document is the YAML that `npm test` checked
 * (every schema against Ajv's meta-schema and every validator compiled in strict mode), so
 * production skips the meta-schema check (see {@link createAjv}).
 */
function isBuilt(): boolean {
  return inSingleFile() || existsSync(OPENAPI_JSON_PATH);
}

/** The parsed YAML document, read once and cached. Do not mutate it. */
export function loadOpenApi(): OpenApiDocument {
  documentCache ??= (
    !inSingleFile() && existsSync(OPENAPI_JSON_PATH)
      ? JSON.parse(readFileSync(OPENAPI_JSON_PATH, 'utf8'))
      : parse(readAssetText('schema/openapi.yaml', OPENAPI_PATH))
  ) as OpenApiDocument;
  return documentCache;
}

/** The error catalogue from the document's root `x-error-codes`. */
export function getErrorCatalogue(): CatalogueEntry[] {
  return loadOpenApi()['x-error-codes'] as CatalogueEntry[];
}

/**
 * Deep copy of `value` with every `#/components/schemas/X` reference rewritten to
 * `COMPONENTS_ID#/$defs/X`, so it resolves inside Ajv.
 */
export function rewriteRefs<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => rewriteRefs(v)) as T;
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) {
      out[k] = `${COMPONENTS_ID}#/$defs/${v.slice('#/components/schemas/'.length)}`;
    } else {
      out[k] = rewriteRefs(v);
    }
  }
  return out as T;
}

/**
 * A fresh Ajv 2020-12 instance in strict mode with formats, the project's `x-` keywords
 * and the component schemas registered.
 *
 * `verbose: true` keeps `parentSchema` on each error, which `toValidationItems` reads to
 * find the property's `x-error-code`. `allowUnionTypes` permits `type: [string, "null"]`,
 * the 3.1 way of writing a nullable value; every other strict check stays on.
 *
 * `validateSchema: false` skips checking each schema against the 2020-12 meta-schema, whose
 * own validator Ajv compiles per instance (about 0.1 s of CPU each, two instances per
 * server: a fifth of a start). {@link getOperations} passes it for a built document only;
 * the YAML source (tests, `tsx`) is always checked. Strict mode stays on either way.
 */
export function createAjv(options: { coerce?: boolean; validateSchema?: boolean } = {}): Ajv2020 {
  const ajv = new Ajv2020({
    strict: true,
    validateSchema: options.validateSchema ?? true,
    allErrors: true,
    verbose: true,
    allowUnionTypes: true,
    coerceTypes: options.coerce ? true : false,
    useDefaults: options.coerce ? true : false,
  });
  addFormats(ajv);
  // Annotation-only keywords: documented for clients and the host, no validation effect.
  ajv.addKeyword({ keyword: 'x-error-code', schemaType: 'string' });
  ajv.addKeyword({ keyword: 'x-provisional' });
  ajv.addSchema({
    $id: COMPONENTS_ID,
    $defs: rewriteRefs(loadOpenApi().components?.schemas ?? {}),
  });
  return ajv;
}

/** Turns one parameter list into an object schema (`properties` by name, `required`). */
function paramsSchema(params: any[]): AnySchemaObject | undefined {
  if (params.length === 0) return undefined;
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const p of params) {
    properties[p.name] = rewriteRefs(p.schema ?? {});
    if (p.required) required.push(p.name);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

/** Resolves a `#/components/<kind>/<name>` reference inside the document (one level). */
function deref(doc: OpenApiDocument, value: any): any {
  if (value && typeof value.$ref === 'string' && value.$ref.startsWith('#/components/')) {
    const [, , kind, name] = value.$ref.split('/');
    return doc.components?.[kind]?.[name];
  }
  return value;
}

/** Defines `target[key]` as a value computed on first read and then kept. */
function lazy<T extends object, K extends keyof T>(target: T, key: K, make: () => T[K]): void {
  let value: T[K] | undefined;
  Object.defineProperty(target, key, { enumerable: true, get: () => (value ??= make()) });
}

/**
 * Every operation of the document by operationId, validators compiled once, on first use.
 * Throws when an operationId repeats or a schema does not compile in strict mode.
 */
export function getOperations(): Map<string, OperationInfo> {
  if (operationsCache) return operationsCache;
  const doc = loadOpenApi();
  // The two Ajv instances too are made at the first compile (registering the components costs
  // some 50 ms each), so a start serves /readyz before any of this.
  const validateSchema = !isBuilt();
  let bodyAjvCache: Ajv2020 | undefined;
  let queryAjvCache: Ajv2020 | undefined;
  const bodyAjv = () => (bodyAjvCache ??= createAjv({ validateSchema }));
  const queryAjv = () => (queryAjvCache ??= createAjv({ coerce: true, validateSchema }));
  const ops = new Map<string, OperationInfo>();
  const rootSecurity: any[] = doc.security ?? [];

  for (const [path, item] of Object.entries<any>(doc.paths ?? {})) {
    const server: 'api' | 'site' = item.servers?.some((s: any) => s.url === '/') ? 'site' : 'api';
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      const id: string = op.operationId;
      if (!id) throw new Error(`openapi.yaml: ${method.toUpperCase()} ${path} has no operationId`);
      if (ops.has(id)) throw new Error(`openapi.yaml: operationId ${id} is used twice`);

      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) =>
        deref(doc, p),
      );
      const security: any[] = op.security ?? rootSecurity;
      const isPublic = security.length === 0 || security.some((r) => Object.keys(r).length === 0);
      const credentials: CredentialKind[] = op['x-credentials'] ?? ALL_CREDENTIALS;
      const upper = method.toUpperCase();
      const scope =
        isPublic || !credentials.includes('api_key')
          ? null
          : ((op['x-scope'] as OperationInfo['scope']) ??
            (upper === 'GET' || upper === 'HEAD' ? 'read' : 'write'));

      const info: OperationInfo = {
        operationId: id,
        method: upper,
        path,
        server,
        public: isPublic,
        credentials,
        scope,
        idempotent: op['x-idempotent'] === true,
      };
      // Validators compile on first use: a process pays only for the operations it serves
      // (compiling all ~60 up front cost about a second per server start). The schema test
      // compiles every one of them in strict mode, so a broken schema still fails the suite.
      const body = deref(doc, op.requestBody)?.content?.['application/json']?.schema;
      if (body) lazy(info, 'validateBody', () => bodyAjv().compile(rewriteRefs(body)));
      const query = paramsSchema(params.filter((p) => p.in === 'query'));
      if (query) lazy(info, 'validateQuery', () => queryAjv().compile(query));
      const pathParams = paramsSchema(params.filter((p) => p.in === 'path'));
      if (pathParams) lazy(info, 'validateParams', () => bodyAjv().compile(pathParams));
      ops.set(id, info);
    }
  }
  operationsCache = ops;
  return ops;
}

/** Ajv keyword → the item's short `code` word. */
const KEYWORD_CODES: Record<string, string> = {
  required: 'required',
  type: 'type',
  enum: 'enum',
  const: 'enum',
  format: 'format',
  pattern: 'pattern',
  minimum: 'minimum',
  exclusiveMinimum: 'minimum',
  maximum: 'maximum',
  exclusiveMaximum: 'maximum',
  minLength: 'min_length',
  maxLength: 'max_length',
  minItems: 'min_items',
  maxItems: 'max_items',
  minProperties: 'min_properties',
  maxProperties: 'max_properties',
  additionalProperties: 'unknown_field',
  unevaluatedProperties: 'unknown_field',
};

/** `/a/b~1c/0` → `a.b/c.0` (JSON Pointer unescaped, dots between segments). */
function pointerToField(pointer: string): string[] {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function describe(e: ErrorObject, code: string): string {
  const p = e.params;
  switch (code) {
    case 'required':
      return 'is required';
    case 'unknown_field':
      return 'is not a known field';
    case 'type':
      return `must be of type ${Array.isArray(p.type) ? p.type.join(' or ') : String(p.type)}`;
    case 'enum':
      return `must be one of: ${((p.allowedValues as unknown[]) ?? [p.allowedValue]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'format':
      return `must be a valid ${String(p.format)}`;
    // A pattern quoted back says nothing to a person: say what a valid value looks like.
    case 'pattern':
      return patternWords(String(p.pattern));
    default:
      return e.message ?? 'is invalid';
  }
}

/**
 * Turns Ajv errors into the API's validation items and picks the Problem code.
 *
 * - `field` is the dotted path of the offending value; a missing field or an unknown field
 *   names that field (`retry_policy.max_snoozes`, `colour`).
 * - The Problem code is the `x-error-code` of the first error (in the order Ajv reports them,
 *   which follows the schema's property order) whose failing schema carries one ("specific
 *   codes first", contract §4). A `type` error, a missing required field and
 *   an unknown field never take a specific code: they stay `validation_error`.
 *   `decidedBy` is the item whose schema named the specific code (undefined for validation_error).
 * - Errors from `if`/`anyOf`/`oneOf` wrappers (which only say "a branch failed") are dropped;
 *   the branch errors themselves are kept.
 */
export function toValidationItems(
  errors: ErrorObject[],
  where: 'body' | 'query' | 'path',
): { code: string; items: ValidationErrorItem[]; decidedBy: ValidationErrorItem | undefined } {
  let code = 'validation_error';
  let decidedBy: ValidationErrorItem | undefined;
  const items: ValidationErrorItem[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    if (e.keyword === 'if' || e.keyword === 'anyOf' || e.keyword === 'oneOf' || e.keyword === 'not')
      continue;
    const segments = pointerToField(e.instancePath);
    const p = e.params;
    if (e.keyword === 'required') segments.push(String(p.missingProperty));
    if (e.keyword === 'additionalProperties') segments.push(String(p.additionalProperty));
    if (e.keyword === 'unevaluatedProperties') segments.push(String(p.unevaluatedProperty));
    const itemCode = KEYWORD_CODES[e.keyword] ?? 'invalid';
    const field = segments.join('.');
    const key = `${field}\u0000${itemCode}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const item: ValidationErrorItem = {
      field,
      in: where,
      code: itemCode,
      message: describe(e, itemCode),
    };
    items.push(item);
    if (code === 'validation_error' && !['required', 'type', 'unknown_field'].includes(itemCode)) {
      const specific = e.parentSchema?.['x-error-code'];
      if (typeof specific === 'string') {
        code = specific;
        decidedBy = item;
      }
    }
  }
  return { code, items, decidedBy };
}
