import { ApiError } from './api-error';

const RESOURCE_ID = /^[A-Za-z0-9._:-]{1,200}$/;

/** Ids in paths are opaque, but never contain characters outside this set; say so early. */
export function resourceId(value: string, field: string): string {
  if (!RESOURCE_ID.test(value)) {
    throw ApiError.badRequest(`${field} is not a valid id`, { field });
  }
  return value;
}
