/** Injection token: the origin of APP_URL, e.g. `https://vigil.example.com`. */
export const WEB_ORIGIN = Symbol('WEB_ORIGIN');
