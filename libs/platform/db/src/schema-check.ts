import pg from 'pg';

/**
 * Proves a Prisma schema and the database its migrations built agree: every model has its
 * table, every scalar field its column with the matching type and nullability, primary keys
 * match, and no table or column exists that the schema does not know. (The Prisma schema
 * engine that would run `migrate diff` cannot be downloaded here; this checks the same facts.)
 */
interface PrismaField {
  name: string;
  column: string;
  type: string;
  optional: boolean;
  list: boolean;
  nativeType: string | undefined;
  id: boolean;
  relation: boolean;
}

interface PrismaModel {
  name: string;
  table: string;
  fields: PrismaField[];
  compoundId: string[] | undefined;
}

const SCALARS = new Set(['String', 'Int', 'BigInt', 'Float', 'Decimal', 'Boolean', 'DateTime', 'Json', 'Bytes']);

export function parsePrismaSchema(text: string): { models: PrismaModel[]; enums: Map<string, string> } {
  const source = text.replace(/\/\/.*$/gm, '');
  const enums = new Map<string, string>();
  for (const match of source.matchAll(/enum\s+(\w+)\s*\{([^}]*)\}/g)) {
    const mapped = /@@map\("([^"]+)"\)/.exec(match[2]);
    enums.set(match[1], mapped ? mapped[1] : match[1]);
  }
  const modelNames = new Set([...source.matchAll(/model\s+(\w+)\s*\{/g)].map((m) => m[1]));
  const models: PrismaModel[] = [];
  // A model body ends at a closing brace alone on its line (defaults like "{}" contain braces).
  for (const match of source.matchAll(/model\s+(\w+)\s*\{([\s\S]*?)\n\}/g)) {
    const [, name, body] = match;
    const tableMap = /@@map\("([^"]+)"\)/.exec(body);
    const compound = /@@id\(\[([^\]]+)\]/.exec(body);
    const fields: PrismaField[] = [];
    for (const rawLine of body.split('\n')) {
      const line = rawLine.trim();
      if (!line || line.startsWith('@@')) continue;
      const fieldMatch = /^(\w+)\s+(\w+)(\[\])?(\?)?\s*(.*)$/.exec(line);
      if (!fieldMatch) continue;
      const [, fieldName, type, list, optional, attributes] = fieldMatch;
      const relation = modelNames.has(type) || /@relation/.test(attributes);
      fields.push({
        name: fieldName,
        column: /@map\("([^"]+)"\)/.exec(attributes)?.[1] ?? fieldName,
        type,
        optional: Boolean(optional),
        list: Boolean(list),
        nativeType: /@db\.(\w+)/.exec(attributes)?.[1],
        id: /@id\b/.test(attributes),
        relation,
      });
    }
    models.push({
      name,
      table: tableMap ? tableMap[1] : name,
      fields,
      compoundId: compound ? compound[1].split(',').map((f) => f.trim()) : undefined,
    });
  }
  return { models, enums };
}

function expectedUdt(field: PrismaField, enums: Map<string, string>): string {
  const native = field.nativeType?.toLowerCase();
  let udt: string;
  if (enums.has(field.type)) udt = enums.get(field.type)!;
  else {
    switch (field.type) {
      case 'String': udt = native === 'uuid' ? 'uuid' : native === 'varchar' ? 'varchar' : native === 'char' ? 'bpchar' : native === 'citext' ? 'citext' : 'text'; break;
      case 'Int': udt = native === 'smallint' ? 'int2' : 'int4'; break;
      case 'BigInt': udt = 'int8'; break;
      case 'Float': udt = native === 'real' ? 'float4' : 'float8'; break;
      case 'Decimal': udt = 'numeric'; break;
      case 'Boolean': udt = 'bool'; break;
      case 'DateTime': udt = native === 'timestamptz' ? 'timestamptz' : native === 'date' ? 'date' : 'timestamp'; break;
      case 'Json': udt = native === 'json' ? 'json' : 'jsonb'; break;
      case 'Bytes': udt = 'bytea'; break;
      default: udt = `unknown:${field.type}`;
    }
  }
  return field.list ? `_${udt}` : udt;
}

export async function diffSchemaAgainstDatabase(schemaText: string, url: string, dbSchema: string): Promise<string[]> {
  const { models, enums } = parsePrismaSchema(schemaText);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows: columns } = await client.query<{ table_name: string; column_name: string; udt_name: string; is_nullable: string }>(
      'SELECT table_name, column_name, udt_name, is_nullable FROM information_schema.columns WHERE table_schema = $1',
      [dbSchema],
    );
    const { rows: pks } = await client.query<{ table_name: string; column_name: string }>(
      `SELECT tc.table_name, kcu.column_name FROM information_schema.table_constraints tc
       JOIN information_schema.key_column_usage kcu ON tc.constraint_name = kcu.constraint_name AND tc.table_schema = kcu.table_schema
       WHERE tc.constraint_type = 'PRIMARY KEY' AND tc.table_schema = $1`,
      [dbSchema],
    );
    const differences: string[] = [];
    const dbTables = new Map<string, Map<string, { udt: string; nullable: boolean }>>();
    for (const column of columns) {
      if (column.table_name === '_prisma_migrations') continue;
      if (!dbTables.has(column.table_name)) dbTables.set(column.table_name, new Map());
      dbTables.get(column.table_name)!.set(column.column_name, { udt: column.udt_name, nullable: column.is_nullable === 'YES' });
    }
    for (const model of models) {
      const table = dbTables.get(model.table);
      if (!table) {
        differences.push(`table ${model.table} (model ${model.name}) is missing`);
        continue;
      }
      const scalarFields = model.fields.filter((f) => !f.relation && (SCALARS.has(f.type) || enums.has(f.type)));
      for (const field of scalarFields) {
        const column = table.get(field.column);
        if (!column) {
          differences.push(`column ${model.table}.${field.column} is missing`);
          continue;
        }
        const udt = expectedUdt(field, enums);
        if (column.udt !== udt) differences.push(`column ${model.table}.${field.column} is ${column.udt}, schema says ${udt}`);
        if (column.nullable !== field.optional && !field.list) differences.push(`column ${model.table}.${field.column} nullable=${column.nullable}, schema says ${field.optional}`);
      }
      for (const columnName of table.keys()) {
        if (!scalarFields.some((f) => f.column === columnName)) differences.push(`column ${model.table}.${columnName} is not in the schema`);
      }
      const expectedPk = (model.compoundId ?? model.fields.filter((f) => f.id).map((f) => f.name)).map((n) => model.fields.find((f) => f.name === n)?.column ?? n).sort();
      const actualPk = pks.filter((pk) => pk.table_name === model.table).map((pk) => pk.column_name).sort();
      if (expectedPk.join(',') !== actualPk.join(',')) differences.push(`primary key of ${model.table} is (${actualPk.join(', ')}), schema says (${expectedPk.join(', ')})`);
    }
    for (const tableName of dbTables.keys()) {
      if (!models.some((m) => m.table === tableName)) differences.push(`table ${tableName} is not in the schema`);
    }
    return differences;
  } finally {
    await client.end();
  }
}
