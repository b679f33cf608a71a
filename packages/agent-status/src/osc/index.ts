export {
  createOscStatusParser,
  OSC_STATUS_INTRODUCER,
  type OscPushResult,
  type OscStatusParser,
} from './osc-parser.ts';
export {
  decodeOscPayload,
  decodeOscPayloadValue,
  type OscStatusPayload,
  oscStatusPayloadSchema,
} from './osc-payload.ts';
