export { ApiError, isHttpMappable, type ApiErrorCode, type HttpMappableError } from './api-error';
export { ApiExceptionFilter } from './api-exception-filter';
export { requestIdMiddleware, REQUEST_ID_HEADER } from './request-id';
export { resourceId } from './resource-id';
export { requireContentType } from './require-content-type';
export { SafeHtml, flag, html } from './html';
