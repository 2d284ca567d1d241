export {
  API_ERROR_CODES,
  ApiError,
  isApiErrorCode,
  isHttpMappable,
  type ApiErrorCode,
  type HttpMappableError,
} from './api-error';
export { apiErrorOf } from './api-error-of';
export { ApiExceptionFilter } from './api-exception-filter';
export { answerApiError } from './answer-api-error';
export { answerJson } from './answer-json';
export { requestIdMiddleware, REQUEST_ID_HEADER } from './request-id';
export { resourceId } from './resource-id';
export { requireContentType } from './require-content-type';
export { BODY_PARSERS, ReadBodyInterceptor, type BodyParser } from './read-body.interceptor';
export { SafeHtml, flag, html } from './html';
export { observeHttpRequests } from './observe-http-requests';
export {
  markUnreadableTargets,
  refuseUnreadableTarget,
  unreadableTargetError,
} from './unreadable-request-target';
export { answerBeforeFramework, type FrontRequestHandler } from './answer-before-framework';
export {
  bearerChallengeHeader,
  bearerSecurityScheme,
  bodyErrorResponses,
  errorResponse,
  errorSchema,
  okHeaders,
  rateLimitHeaders,
  requestIdHeader,
  retryAfterHeader,
  tokenErrorResponses,
} from './api-error-openapi';
