// JSON Schema validation through ajv, written against both API generations (6: dataPath,
// `jsonPointers` option; 8: instancePath) so it keeps working when the dev dependency moves.
interface AjvError {
  instancePath?: string;
  dataPath?: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

interface AjvInstance {
  compile(schema: object): ((data: unknown) => boolean) & { errors?: AjvError[] | null };
}

export interface SchemaError {
  /** JSON pointer of the offending value, e.g. `/apps/edge/port`. */
  path: string;
  keyword: string;
  message: string;
}

export type Validator = (data: unknown) => SchemaError[];

export async function compileSchema(schema: object): Promise<Validator> {
  const module = (await import('ajv')) as unknown as { default: new (options: object) => AjvInstance };
  const { version } = (await import('ajv/package.json')) as { version: string };
  const major = Number(version.split('.')[0]);
  const ajv = new module.default(major >= 8 ? { allErrors: true, strictSchema: true, strictTypes: true, strictTuples: true } : { allErrors: true, jsonPointers: true });
  const validate = ajv.compile(schema);
  return (data) =>
    validate(data)
      ? []
      : (validate.errors ?? []).map((error) => ({
          path: error.instancePath ?? error.dataPath ?? '',
          keyword: error.keyword,
          message: `${error.message ?? error.keyword} ${JSON.stringify(error.params)}`,
        }));
}
