/** The events area's topic, as named on the wire: an event was recorded and committed. */
export const EventTopic = { EVENT: 'EVENT' } as const;

export interface PublishedEvent {
  id: string;
  businessId: string;
  livemode: boolean;
  type: string;
  data: Record<string, unknown>;
  createdAt: string;
}

declare module './pubsub' {
  interface TopicPayloads {
    [EventTopic.EVENT]: [PublishedEvent];
  }
}
