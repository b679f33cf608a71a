export { formatEndpointCmd, formatEndpointEnv } from './format.ts';
export {
  ENDPOINT_KEYS,
  ENDPOINT_LINE_RE,
  ENDPOINT_PORT_RE,
  ENDPOINT_VALUE_RE,
  type EndpointKey,
  type EndpointValues,
  parseEndpointText,
} from './parse.ts';
