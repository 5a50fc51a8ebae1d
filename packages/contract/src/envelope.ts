import { z } from 'zod';

/** Every answer of the API: `code` 1 is success, any other code a failure with a translated `msg`. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ code: z.number().int(), msg: z.string(), data });
}

export const ZFailureEnvelope = z.object({
  code: z.number().int(),
  msg: z.string(),
  data: z.unknown(),
});
export type TFailureEnvelope = z.infer<typeof ZFailureEnvelope>;

export const ZEmpty = z.object({}).strict();
