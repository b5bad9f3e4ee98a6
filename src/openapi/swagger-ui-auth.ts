/*
 * Interceptors the Swagger UI page runs around each request it sends. @nestjs/swagger writes them into the
 * page as source text (Function.prototype.toString), so each is a self-contained arrow function: no imports,
 * no outer names, only what the browser has (`globalThis.ui` is the Swagger UI instance).
 */

interface UiRequest {
  headers?: Record<string, unknown>;
}
interface UiResponse {
  url: string;
  status: number;
  body?: unknown;
}

/** A token typed into Authorize without the `api ` prefix gets it (a bare token has no space). */
export const addApiPrefix = (request: UiRequest): UiRequest => {
  const headers = request.headers ?? {};
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (name.toLowerCase() === 'authorization' && typeof value === 'string' && /^\S+$/.test(value.trim()))
      headers[name] = `api ${value.trim()}`;
  }
  return request;
};

/**
 * A successful login (POST /user/token: 201 with `authToken`) authorizes the page, kept across reloads as an
 * authorization entered by hand is; a logout (DELETE /user/token: 204) removes it.
 */
export const authorizeOnLogin = (response: UiResponse): UiResponse => {
  const page = globalThis as unknown as { ui?: SwaggerUi; location: { href: string } };
  const ui = page.ui;
  const path = new URL(response.url, page.location.href).pathname;
  if (!ui || !path.endsWith('/api/2.0/user/token')) return response;
  const token = (response.body as { authToken?: unknown } | undefined)?.authToken;
  if (response.status === 201 && typeof token === 'string') {
    ui.preauthorizeApiKey('apiToken', `api ${token}`);
    ui.authActions.persistAuthorizationIfNeeded();
  } else if (response.status === 204) {
    ui.authActions.logoutWithPersistOption(['apiToken']);
  }
  return response;
};

interface SwaggerUi {
  preauthorizeApiKey(scheme: string, value: string): void;
  authActions: { persistAuthorizationIfNeeded(): void; logoutWithPersistOption(schemes: string[]): void };
}
