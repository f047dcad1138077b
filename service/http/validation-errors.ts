import type { z } from 'zod';
import type { ValidationErrorItem } from '../../shared/api/index.js';

/** Where a value came from; the first element of every pydantic `loc`. */
export type InputSource = 'body' | 'query' | 'path';

type Loc = (string | number)[];

/**
 * Translates zod issues into the pydantic v2 error items that a FastAPI
 * service answers with, so that clients written against the hosted API parse
 * our 422s unchanged. Only the first error per location is kept, as pydantic
 * stops at the first failing constraint of a field.
 */
export function toPydanticErrors(
  issues: readonly z.core.$ZodIssue[],
  source: InputSource,
  root: unknown,
): ValidationErrorItem[] {
  const items: ValidationErrorItem[] = [];
  for (const issue of issues) items.push(...translate(issue, [source], root));
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = JSON.stringify(item.loc);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function translate(issue: z.core.$ZodIssue, prefix: Loc, root: unknown): ValidationErrorItem[] {
  const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
  const loc = [...prefix, ...path];
  const input = 'input' in issue ? issue.input : undefined;
  const parent = valueAt(root, path.slice(0, -1));
  const key = path.at(-1);
  const absent =
    input === undefined &&
    (path.length === 0 ||
      parent === null ||
      typeof parent !== 'object' ||
      !(String(key) in parent));
  if (absent && !['invalid_union', 'unrecognized_keys', 'invalid_key'].includes(issue.code)) {
    return [{ type: 'missing', loc, msg: 'Field required', input: parent ?? null }];
  }
  switch (issue.code) {
    case 'invalid_type':
      if (input === undefined) {
        return [
          {
            type: 'missing',
            loc,
            msg: 'Field required',
            input: valueAt(root, path.slice(0, -1)) ?? null,
          },
        ];
      }
      return [typeError(issue.expected, loc, input)];
    case 'too_small':
    case 'too_big':
      return [sizeError(issue, loc, input)];
    case 'invalid_format':
      if (issue.format === 'guid' || issue.format === 'uuid') {
        return [
          {
            type: 'uuid_parsing',
            loc,
            msg: 'Input should be a valid UUID, expected 32 hexadecimal digits in groups of 8-4-4-4-12',
            input,
            ctx: { error: 'expected 32 hexadecimal digits in groups of 8-4-4-4-12' },
          },
        ];
      }
      if (issue.format === 'regex' && 'pattern' in issue && typeof issue.pattern === 'string') {
        const pattern = issue.pattern.replace(/^\/(.*)\/[a-z]*$/, '$1');
        return [
          {
            type: 'string_pattern_mismatch',
            loc,
            msg: `String should match pattern '${pattern}'`,
            input,
            ctx: { pattern },
          },
        ];
      }
      return [{ type: 'value_error', loc, msg: `Value error, ${issue.message}`, input }];
    case 'invalid_value': {
      if ((issue as { expected?: string }).expected === 'stringbool') {
        return [
          {
            type: 'bool_parsing',
            loc,
            msg: 'Input should be a valid boolean, unable to interpret input',
            input,
          },
        ];
      }
      const expected = oxfordOr(issue.values.map((v) => `'${String(v)}'`));
      return [
        {
          type: 'literal_error',
          loc,
          msg: `Input should be ${expected}`,
          input,
          ctx: { expected },
        },
      ];
    }
    case 'unrecognized_keys':
      return issue.keys.map((key) => ({
        type: 'extra_forbidden',
        loc: [...loc, key],
        msg: 'Extra inputs are not permitted',
        input: valueAt(root, [...path, key]),
      }));
    case 'invalid_union':
      return [unionError(issue, loc, path, root)];
    case 'invalid_key':
      return issue.issues.flatMap((inner) => translate(inner, [...loc, '[key]'], root));
    case 'invalid_element':
      return issue.issues.flatMap((inner) => translate(inner, loc, root));
    case 'not_multiple_of':
      return [{ type: 'multiple_of', loc, msg: issue.message, input }];
    case 'custom':
      return [{ type: 'value_error', loc, msg: `Value error, ${issue.message}`, input }];
  }
}

const TYPE_ERRORS: Record<string, { type: string; msg: string }> = {
  string: { type: 'string_type', msg: 'Input should be a valid string' },
  number: { type: 'float_type', msg: 'Input should be a valid number' },
  int: { type: 'int_type', msg: 'Input should be a valid integer' },
  boolean: { type: 'bool_type', msg: 'Input should be a valid boolean' },
  array: { type: 'list_type', msg: 'Input should be a valid list' },
  record: { type: 'dict_type', msg: 'Input should be a valid dictionary' },
};
const OBJECT_ERROR = {
  type: 'model_attributes_type',
  msg: 'Input should be a valid dictionary or object to extract fields from',
};

function typeError(expected: string, loc: Loc, input: unknown): ValidationErrorItem {
  const known = TYPE_ERRORS[expected] ?? OBJECT_ERROR;
  return { ...known, loc, input };
}

function sizeError(
  issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig,
  loc: Loc,
  input: unknown,
): ValidationErrorItem {
  const small = issue.code === 'too_small';
  const limit = Number(small ? issue.minimum : issue.maximum);
  if (issue.origin === 'string') {
    const noun = limit === 1 ? 'character' : 'characters';
    return small
      ? {
          type: 'string_too_short',
          loc,
          msg: `String should have at least ${limit} ${noun}`,
          input,
          ctx: { min_length: limit },
        }
      : {
          type: 'string_too_long',
          loc,
          msg: `String should have at most ${limit} ${noun}`,
          input,
          ctx: { max_length: limit },
        };
  }
  if (issue.origin === 'object' || issue.origin === 'array') {
    const fieldType = issue.origin === 'object' ? 'Dictionary' : 'List';
    const actual = input && typeof input === 'object' ? Object.keys(input).length : 0;
    const items = limit === 1 ? 'item' : 'items';
    return small
      ? {
          type: 'too_short',
          loc,
          msg: `${fieldType} should have at least ${limit} ${items} after validation, not ${actual}`,
          input,
          ctx: { field_type: fieldType, min_length: limit, actual_length: actual },
        }
      : {
          type: 'too_long',
          loc,
          msg: `${fieldType} should have at most ${limit} ${items} after validation, not ${actual}`,
          input,
          ctx: { field_type: fieldType, max_length: limit, actual_length: actual },
        };
  }
  return small
    ? {
        type: 'greater_than_equal',
        loc,
        msg: `Input should be greater than or equal to ${limit}`,
        input,
        ctx: { ge: limit },
      }
    : {
        type: 'less_than_equal',
        loc,
        msg: `Input should be less than or equal to ${limit}`,
        input,
        ctx: { le: limit },
      };
}

/** Pydantic reports a tagged union's failure at the union itself, not at its tag field. */
function unionError(
  issue: z.core.$ZodIssueInvalidUnion,
  loc: Loc,
  path: Loc,
  root: unknown,
): ValidationErrorItem {
  const discriminator = (issue as { discriminator?: string }).discriminator;
  const options = ((issue as { options?: unknown[] }).options ?? []).map((o) => `'${String(o)}'`);
  if (!discriminator) {
    return { type: 'union_error', loc, msg: issue.message, input: issue.input };
  }
  const unionLoc = loc.at(-1) === discriminator ? loc.slice(0, -1) : loc;
  const unionPath = path.at(-1) === discriminator ? path.slice(0, -1) : path;
  const value = valueAt(root, unionPath);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ...OBJECT_ERROR, loc: unionLoc, input: value };
  }
  const tag = (value as Record<string, unknown>)[discriminator];
  if (tag === undefined) {
    return {
      type: 'union_tag_not_found',
      loc: unionLoc,
      msg: `Unable to extract tag using discriminator '${discriminator}'`,
      input: value,
      ctx: { discriminator: `'${discriminator}'` },
    };
  }
  const expectedTags = options.join(', ');
  return {
    type: 'union_tag_invalid',
    loc: unionLoc,
    msg: `Input tag '${String(tag)}' found using '${discriminator}' does not match any of the expected tags: ${expectedTags}`,
    input: value,
    ctx: { discriminator: `'${discriminator}'`, tag: String(tag), expected_tags: expectedTags },
  };
}

function valueAt(root: unknown, path: Loc): unknown {
  let current = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

/** "'a'", "'a' or 'b'", "'a', 'b' or 'c'": pydantic's wording for literal choices. */
function oxfordOr(values: string[]): string {
  if (values.length <= 1) return values.join('');
  return `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
}
