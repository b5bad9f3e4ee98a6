export class ApiIndexLinksDto {
  /** Swagger UI. */
  docs: string;
  /** The OpenAPI 3 document. */
  openapi: string;
  health: string;
  guides: string;
  wikis: string;
  /** Where tokens come from (POST). */
  login: string;
}

export class ApiIndexDto {
  name: string;
  /** The service's version. */
  version: string;
  /** The API version this service implements. */
  api: string;
  links: ApiIndexLinksDto;
}
