package dev.vigil.bench.kafkastreams;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

/**
 * Decodes records in the Confluent wire format (magic byte 0, the writer schema's registry id as a
 * big-endian int32, the Avro binary body) into {@link DetectionEvent}s. Writer schemas are fetched
 * once per id from the registry's Confluent API ({@code GET /schemas/ids/<id>}), as Vigil's
 * AvroCodec does: Confluent's own deserializer is not on Maven Central.
 *
 * <p>One instance per stream task: it reuses its decoder and record between calls.
 */
final class ConfluentAvroDecoder {
  /** A record that is not a detection event; the reason says why. */
  static final class UndecodableRecordException extends Exception {
    UndecodableRecordException(String reason) {
      super(reason);
    }
  }

  private static final int WIRE_HEADER_BYTES = 5;
  private static final JsonFactory JSON = new JsonFactory();

  private final String registryUrl;
  private final HttpClient http;
  private final Map<Integer, SchemaReader> readers = new HashMap<>();
  private BinaryDecoder decoder;

  ConfluentAvroDecoder(String registryUrl) {
    this.registryUrl = registryUrl.replaceAll("/+$", "");
    this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  }

  DetectionEvent decode(byte[] value) throws UndecodableRecordException {
    if (value == null || value.length < WIRE_HEADER_BYTES) {
      throw new UndecodableRecordException("empty or truncated record");
    }
    if (value[0] != 0)
      throw new UndecodableRecordException("not in the schema registry wire format");
    SchemaReader reader = readerOf(ByteBuffer.wrap(value, 1, 4).getInt());
    decoder =
        DecoderFactory.get()
            .binaryDecoder(value, WIRE_HEADER_BYTES, value.length - WIRE_HEADER_BYTES, decoder);
    try {
      reader.record = reader.datumReader.read(reader.record, decoder);
    } catch (IOException | RuntimeException e) {
      throw new UndecodableRecordException("undecodable Avro record: " + e.getMessage());
    }
    return reader.event();
  }

  private SchemaReader readerOf(int schemaId) throws UndecodableRecordException {
    SchemaReader reader = readers.get(schemaId);
    if (reader == null) {
      reader = new SchemaReader(new Schema.Parser().parse(fetchSchema(schemaId)));
      readers.put(schemaId, reader);
    }
    return reader;
  }

  private String fetchSchema(int schemaId) throws UndecodableRecordException {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(registryUrl + "/schemas/ids/" + schemaId))
            .timeout(Duration.ofSeconds(10))
            .header("Accept", "application/vnd.schemaregistry.v1+json, application/json")
            .GET()
            .build();
    HttpResponse<String> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      // The registry being down is not the record's fault: fail the task, not the record.
      throw new IllegalStateException("schema registry unreachable: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while fetching schema " + schemaId, e);
    }
    if (response.statusCode() >= 500) {
      throw new IllegalStateException("schema registry answered " + response.statusCode());
    }
    if (response.statusCode() != 200) {
      throw new UndecodableRecordException("unknown schema id " + schemaId);
    }
    try (JsonParser parser = JSON.createParser(response.body())) {
      if (parser.nextToken() != JsonToken.START_OBJECT) throw new IOException("not an object");
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String field = parser.currentName();
        parser.nextToken();
        if (field.equals("schema")) return parser.getText();
        parser.skipChildren();
      }
    } catch (IOException e) {
      throw new IllegalStateException("unreadable schema registry answer: " + e.getMessage(), e);
    }
    throw new IllegalStateException("schema registry answer without a schema");
  }

  /** A writer schema with the positions of the fields the processor reads. */
  private static final class SchemaReader {
    final GenericDatumReader<GenericRecord> datumReader;
    final int id;
    final int detectionId;
    final int detectionName;
    final int issueType;
    final int employeeEmail;
    final int employeeName;
    final int assetName;
    final int happened;
    final int description;
    GenericRecord record;

    SchemaReader(Schema schema) throws UndecodableRecordException {
      datumReader = new GenericDatumReader<>(schema);
      id = position(schema, "id");
      detectionId = position(schema, "detection_id");
      detectionName = position(schema, "detection_name");
      issueType = position(schema, "issue_type");
      employeeEmail = position(schema, "employee_email");
      employeeName = position(schema, "employee_name");
      assetName = position(schema, "asset_name");
      happened = position(schema, "happened");
      Schema.Field field = schema.getField("description");
      description = field == null ? -1 : field.pos();
    }

    private static int position(Schema schema, String name) throws UndecodableRecordException {
      Schema.Field field = schema.getField(name);
      if (field == null) throw new UndecodableRecordException("schema has no field " + name);
      return field.pos();
    }

    DetectionEvent event() throws UndecodableRecordException {
      String issue = text(issueType);
      String asset = text(assetName);
      Object given = description < 0 ? null : record.get(description);
      String describedAs = given == null ? "" : given.toString().trim();
      if (describedAs.isEmpty()) describedAs = issue.replace('_', ' ') + " on " + asset;
      Object when = record.get(happened);
      if (!(when instanceof Long millis))
        throw new UndecodableRecordException("happened is not a long");
      return new DetectionEvent(
          text(id),
          text(detectionId),
          text(detectionName),
          text(employeeEmail).toLowerCase(Locale.ROOT),
          text(employeeName),
          describedAs,
          millis);
    }

    private String text(int position) throws UndecodableRecordException {
      Object value = record.get(position);
      String text = value == null ? "" : value.toString().trim();
      if (text.isEmpty()) {
        throw new UndecodableRecordException(
            record.getSchema().getFields().get(position).name() + " is empty");
      }
      return text;
    }
  }
}
