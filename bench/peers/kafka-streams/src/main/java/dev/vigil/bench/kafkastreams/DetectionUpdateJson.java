package dev.vigil.bench.kafkastreams;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.Map;

/**
 * The record the peer writes per changed detection: its counts, its affected users and the
 * summaries of the events added since its previous record, as JSON. Lists are capped like Vigil's
 * notifications (max events per notification, 5,000 by default: the newest events); counts stay
 * exact.
 */
final class DetectionUpdateJson {
  static final int LIST_CAP = 5_000;
  private static final JsonFactory JSON = new JsonFactory();

  private DetectionUpdateJson() {}

  static byte[] encode(DetectionWindow window, long emittedAt) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(512 + 160 * window.pending.size());
    try (JsonGenerator json = JSON.createGenerator(bytes)) {
      json.writeStartObject();
      json.writeStringField("detection_id", window.detectionId);
      json.writeStringField("detection_name", window.detectionName);
      json.writeNumberField("event_count", window.count);
      json.writeNumberField("new_event_count", window.pendingCount);
      json.writeNumberField("user_count", window.userCount());
      json.writeNumberField("first_event_at", window.firstEventAt);
      json.writeNumberField("last_event_at", window.lastEventAt);
      json.writeNumberField("emitted_at", emittedAt);
      json.writeArrayFieldStart("affected_users");
      int users = 0;
      for (Map.Entry<String, String> user : window.users.entrySet()) {
        if (users++ == LIST_CAP) break;
        json.writeStartObject();
        json.writeStringField("email", user.getKey());
        json.writeStringField("name", user.getValue());
        json.writeEndObject();
      }
      json.writeEndArray();
      json.writeArrayFieldStart("events");
      Iterator<DetectionEvent> events = window.pending.iterator();
      for (int skip = window.pending.size() - LIST_CAP; skip > 0; skip--) events.next();
      while (events.hasNext()) {
        DetectionEvent event = events.next();
        json.writeStartObject();
        json.writeStringField("id", event.id());
        json.writeStringField("person_name", event.personName());
        json.writeStringField("person_email", event.personEmail());
        json.writeStringField("description", event.description());
        json.writeNumberField("happened", event.happened());
        json.writeEndObject();
      }
      json.writeEndArray();
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }
}
