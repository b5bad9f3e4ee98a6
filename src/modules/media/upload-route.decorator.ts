import { applyDecorators, HttpCode, HttpStatus } from '@nestjs/common';
import { RouteSettings } from '../../common/http/route-settings';
import { ApiBody, ApiConsumes, ApiPayloadTooLargeResponse, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import type { BodyRouteConfig } from '../../common/http/body-parser';

/** A media upload: raw bytes (any Content-Type) or a multipart form with the field `file`; 200 on success. */
export function UploadRoute(what: string) {
  return applyDecorators(
    RouteSettings({ rawBody: true } satisfies BodyRouteConfig),
    HttpCode(HttpStatus.OK),
    ApiConsumes('application/octet-stream', 'multipart/form-data'),
    ApiBody({
      description: `The ${what} file: the raw bytes as the body (name in \`?file=\`), or a multipart form with the field \`file\`.`,
      schema: { type: 'string', format: 'binary' },
    }),
    ApiUnprocessableEntityResponse({ description: 'Empty body, missing file name, or a file of the wrong type.' }),
    ApiPayloadTooLargeResponse({ description: 'The file is larger than UPLOAD_LIMIT (50 MiB by default).' }),
  );
}
