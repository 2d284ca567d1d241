package dev.vigil.bench.kafkastreams;

import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaClientSupplier;

/**
 * The clients Kafka Streams would create itself, with a producer that tells {@link Progress} when a
 * transaction committed: Streams has no commit callback, and the committed offsets alone do not say
 * whether the outputs of the last records were in that transaction.
 */
final class CommitTrackingClientSupplier implements KafkaClientSupplier {
  private final Progress progress;

  CommitTrackingClientSupplier(Progress progress) {
    this.progress = progress;
  }

  @Override
  public Admin getAdmin(Map<String, Object> config) {
    return Admin.create(config);
  }

  @Override
  public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
    return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer()) {
      @Override
      public void commitTransaction() {
        long emitted = progress.beforeCommit();
        super.commitTransaction();
        progress.afterCommit(emitted);
      }
    };
  }

  @Override
  public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
    return consumer(config);
  }

  @Override
  public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
    return consumer(config);
  }

  @Override
  public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
    return consumer(config);
  }

  private static Consumer<byte[], byte[]> consumer(Map<String, Object> config) {
    return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }
}
