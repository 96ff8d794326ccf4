import type { OpenApiDocument } from './openapi.ts';

/**
 * docs/api.md from the OpenAPI document (npm run docs:api): the operations grouped by tag, each
 * with its role, parameters, body and answers, then every named schema with its fields. Pure, so a
 * test can compare the committed file with what the document renders to now.
 */

type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  description?: string;
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
};
type Parameter = { name: string; in: string; required?: boolean; description?: string; schema?: Schema };
type Content = Record<string, { schema?: Schema }>;
type Action = {
  action: string | null;
  summary: string;
  role: string;
  adminWhen?: { description: string };
  query?: string[];
  body?: Schema | 'multipart';
  responses: Record<string, Schema & { description?: string }>;
};
type Operation = {
  summary?: string;
  tags?: string[];
  'x-role'?: string;
  'x-admin-when'?: { description: string };
  'x-actions'?: Action[];
  parameters?: Parameter[];
  requestBody?: { content: Content };
  responses: Record<string, { description: string; content?: Content }>;
};
type Document = {
  info: { title: string; description?: string };
  tags?: { name: string }[];
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
};

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const anchor = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');
const nameOf = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);
const link = (ref: string) => `[${nameOf(ref)}](#${anchor(nameOf(ref))})`;

/** A schema's type in a few words: named schemas as links, enums as their values. */
function typeOf(schema: Schema | undefined): string {
  if (!schema) return 'any';
  if (schema.$ref) return link(schema.$ref);
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  if (schema.enum) return schema.enum.map((v) => `\`${JSON.stringify(v)}\``).join(' \\| ');
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return union.map(typeOf).join(' \\| ');
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (!types.length) return 'any';
  return types.map((t) => (t === 'array' ? `${typeOf(schema.items)}[]` : t)).join(' \\| ');
}

const characters = (n: number) => `${n} character${n === 1 ? '' : 's'}`;

/** Limits and defaults a client must respect, in one line. */
function limitsOf(schema: Schema): string {
  const parts = [
    schema.minLength !== undefined && `at least ${characters(schema.minLength)}`,
    schema.maxLength !== undefined && `at most ${characters(schema.maxLength)}`,
    schema.minimum !== undefined && `≥ ${schema.minimum}`,
    schema.maximum !== undefined && `≤ ${schema.maximum}`,
    schema.maxItems !== undefined && `at most ${schema.maxItems} items`,
    schema.pattern && `matches \`${schema.pattern}\``,
    schema.format && schema.format,
    schema.default !== undefined && `default \`${JSON.stringify(schema.default)}\``,
  ].filter(Boolean);
  return [schema.description, parts.join(', ')].filter(Boolean).join('; ');
}

function fieldsTable(schema: Schema): string[] {
  const properties = Object.entries(schema.properties ?? {});
  if (!properties.length) return [];
  return [
    '| field | type | required | notes |',
    '| --- | --- | --- | --- |',
    ...properties.map(
      ([name, field]) =>
        `| \`${name}\` | ${typeOf(field)} | ${schema.required?.includes(name) ? 'yes' : ''} | ${cell(limitsOf(field))} |`,
    ),
  ];
}

function schemaSection(name: string, schema: Schema): string[] {
  const lines = [`### ${name}`, ''];
  if (schema.description) lines.push(schema.description, '');
  const union = schema.anyOf ?? schema.oneOf;
  if (union) {
    union.forEach((part, i) => {
      lines.push(`One of, option ${i + 1}${part.$ref ? `: ${link(part.$ref)}` : ''}:`, '');
      const table = fieldsTable(part);
      if (table.length) lines.push(...table, '');
    });
    return lines;
  }
  const table = fieldsTable(schema);
  if (table.length) lines.push(...table, '');
  else if (!schema.description) lines.push(`${typeOf(schema)}`, '');
  return lines;
}

function parametersTable(parameters: Parameter[]): string[] {
  if (!parameters.length) return [];
  return [
    '| parameter | in | type | required | notes |',
    '| --- | --- | --- | --- | --- |',
    ...parameters.map(
      (p) =>
        `| \`${p.name}\` | ${p.in} | ${typeOf(p.schema)} | ${p.required ? 'yes' : ''} | ${cell(limitsOf({ ...p.schema, description: p.description ?? p.schema?.description }))} |`,
    ),
    '',
  ];
}

function bodyOf(content: Content | undefined): string | null {
  if (!content) return null;
  return Object.entries(content)
    .map(([media, { schema }]) => (media === 'application/json' ? typeOf(schema) : `\`${media}\``))
    .join(', ');
}

function answersOf(responses: Operation['responses']): string[] {
  return Object.entries(responses).map(([status, response]) => {
    const body = bodyOf(response.content);
    return `- ${status}${body ? ` ${body}` : ''}: ${response.description}`;
  });
}

function actionSection(action: Action, method: string, path: string): string[] {
  const query = action.action === null ? '' : `?action=${action.action}`;
  const lines = [
    `#### \`${method} ${path}${query}\``,
    '',
    `${action.summary}. Role: **${action.role}**.`,
    '',
  ];
  if (action.adminWhen) lines.push(`Admins only: ${action.adminWhen.description}.`, '');
  if (action.query?.length) lines.push(`Query: ${action.query.map((q) => `\`${q}\``).join(', ')}.`, '');
  if (action.body)
    lines.push(`Body: ${action.body === 'multipart' ? '`multipart/form-data`' : typeOf(action.body)}.`, '');
  const answers = Object.entries(action.responses).map(
    ([status, schema]) => `${status} ${schema.$ref ? link(schema.$ref) : (schema.description ?? '')}`,
  );
  lines.push(`Answers: ${answers.join('; ')}.`, '');
  return lines;
}

function operationSection(method: string, path: string, op: Operation): string[] {
  const verb = method.toUpperCase();
  const lines = [`### \`${verb} ${path}\``, ''];
  const actions = op['x-actions'];
  if (!actions) lines.push(`${op.summary}. Role: **${op['x-role']}**.`, '');
  if (op['x-admin-when'] && !actions) lines.push(`Admins only: ${op['x-admin-when'].description}.`, '');
  lines.push(...parametersTable(op.parameters ?? []));
  const body = bodyOf(op.requestBody?.content);
  if (body && !actions) lines.push(`Body: ${body}.`, '');
  if (actions) {
    for (const action of actions) lines.push(...actionSection(action, verb, path));
    lines.push('All answers of this path:', '');
  }
  lines.push(...answersOf(op.responses), '');
  return lines;
}

export function renderApiReference(openApi: OpenApiDocument): string {
  // Read as the few fields rendered here: the library's types leave the x- extensions out.
  const document = openApi as unknown as Document;
  const tags = (document.tags ?? []).map((t) => t.name);
  const operations = Object.entries(document.paths ?? {}).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op })),
  );
  const schemas = Object.entries(document.components?.schemas ?? {}).sort(([a], [b]) => a.localeCompare(b));
  const lines = [
    `# ${document.info.title} reference`,
    '',
    '<!-- Generated by `npm run docs:api` from the document at GET /api/openapi.json (src/api/openapi.ts); do not edit. -->',
    '',
    document.info.description ?? '',
    '',
    ...tags.map((tag) => `- [${tag}](#${anchor(tag)})`),
    '- [Schemas](#schemas)',
    '',
  ];
  for (const tag of tags) {
    lines.push(`## ${tag}`, '');
    for (const { path, method, op } of operations.filter((o) => o.op.tags?.[0] === tag))
      lines.push(...operationSection(method, path, op));
  }
  lines.push('## Schemas', '');
  for (const [name, schema] of schemas) lines.push(...schemaSection(name, schema));
  return `${lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}
