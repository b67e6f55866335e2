/** Name and version this library announces in the SDK-mode header on every request. */
export const CLIENT_NAME = 'gateway-client-ts';
export const CLIENT_VERSION = '0.1.0';

/**
 * SDK mode: every request carries `X-Gateway-SDK: <name>/<version>`. Endpoints reserved to client
 * libraries (POST /api/v1/simulate) refuse requests without it.
 */
export const SDK_HEADER = 'X-Gateway-SDK';
export const SDK_HEADER_VALUE = `${CLIENT_NAME}/${CLIENT_VERSION}`;
