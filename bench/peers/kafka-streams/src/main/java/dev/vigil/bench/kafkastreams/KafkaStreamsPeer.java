package dev.vigil.bench.kafkastreams;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.state.Stores;

/**
 * Vigil's stream processor's work as a Kafka Streams application, for the processor bench:
 * detection events (Avro, Confluent wire format) in, keyed by detection id; per detection a
 * de-duplication window of event ids, the count of distinct ids and the affected users in a RocksDB
 * store with its changelog; one JSON record per changed detection per emit interval out.
 * Exactly-once v2, one stream thread.
 *
 * <p>Prints {@code progress ...} lines on stdout (see {@link Progress#line()}) for the bench to
 * read; stops on SIGTERM or when its standard input closes.
 *
 * <pre>
 * --bootstrap-servers 127.0.0.1:9092 --schema-registry http://127.0.0.1:8081/apis/ccompat/v7
 * --input-topic T --output-topic T --application-id ID --state-dir DIR
 * [--commit-interval-ms 1000] [--dedup-window 10000] [--progress-interval-ms 50]
 * </pre>
 */
public final class KafkaStreamsPeer {
  private KafkaStreamsPeer() {}

  public static void main(String[] args) throws InterruptedException {
    Map<String, String> options = options(args);
    Progress progress = new Progress();
    long commitInterval = Long.parseLong(options.getOrDefault("commit-interval-ms", "1000"));
    int windowSize = Integer.parseInt(options.getOrDefault("dedup-window", "10000"));
    long progressInterval = Long.parseLong(options.getOrDefault("progress-interval-ms", "50"));

    Topology topology = topology(options, windowSize, new EmitGrid(commitInterval), progress);
    KafkaStreams streams =
        new KafkaStreams(
            topology, config(options, commitInterval), new CommitTrackingClientSupplier(progress));
    CountDownLatch stopped = new CountDownLatch(1);
    int[] exitCode = {0};
    streams.setStateListener(
        (now, before) -> {
          System.out.println("state=" + now);
          if (now == KafkaStreams.State.ERROR) exitCode[0] = 1;
          if (now == KafkaStreams.State.ERROR || now == KafkaStreams.State.NOT_RUNNING) {
            stopped.countDown();
          }
        });
    streams.setUncaughtExceptionHandler(
        error -> {
          System.err.println("stream thread failed: " + error);
          error.printStackTrace();
          return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });

    ScheduledExecutorService reporter =
        Executors.newSingleThreadScheduledExecutor(daemon("progress"));
    String[] last = {""};
    Runnable report =
        () -> {
          String line = progress.line();
          if (!line.equals(last[0])) System.out.println(line);
          last[0] = line;
        };
    reporter.scheduleAtFixedRate(report, progressInterval, progressInterval, TimeUnit.MILLISECONDS);

    Runnable close = () -> streams.close(Duration.ofSeconds(30));
    Runtime.getRuntime().addShutdownHook(new Thread(close, "shutdown"));
    daemon("stdin").newThread(() -> closeAtEndOfInput(System.in, close)).start();

    streams.start();
    stopped.await();
    // Closing from the state listener's thread would deadlock: close from here.
    streams.close(Duration.ofSeconds(30));
    reporter.shutdown();
    report.run();
    System.out.println("stopped");
    System.out.flush();
    System.exit(exitCode[0]);
  }

  static Topology topology(
      Map<String, String> options, int windowSize, EmitGrid grid, Progress progress) {
    String registry = required(options, "schema-registry");
    Topology topology = new Topology();
    topology.addSource(
        "events",
        new StringDeserializer(),
        new ByteArrayDeserializer(),
        required(options, "input-topic"));
    topology.addProcessor(
        "detections",
        () -> new DetectionWindowProcessor(registry, windowSize, grid, progress),
        "events");
    topology.addStateStore(
        Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(DetectionWindowProcessor.STORE),
                Serdes.String(),
                Serdes.ByteArray())
            .withCachingEnabled(),
        "detections");
    topology.addSink(
        "updates",
        required(options, "output-topic"),
        new StringSerializer(),
        new ByteArraySerializer(),
        "detections");
    return topology;
  }

  static Properties config(Map<String, String> options, long commitInterval) {
    Properties config = new Properties();
    config.put(StreamsConfig.APPLICATION_ID_CONFIG, required(options, "application-id"));
    config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, required(options, "bootstrap-servers"));
    config.put(StreamsConfig.STATE_DIR_CONFIG, required(options, "state-dir"));
    config.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    config.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
    // The processor asks for a commit once per interval, when every task has emitted (EmitGrid);
    // Streams' own timer, which is not aligned with it, is only a backstop, and must stay under
    // the 10 s transaction timeout Streams sets under exactly-once.
    config.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, Math.min(5 * commitInterval, 9_000));
    config.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
    config.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
    // Leave the group on close, so the bench can delete it right away.
    config.put(StreamsConfig.consumerPrefix("internal.leave.group.on.close"), true);
    // Vigil's processor compresses its outputs with gzip: the same work here.
    config.put(StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_TYPE_CONFIG), "gzip");
    return config;
  }

  private static void closeAtEndOfInput(InputStream in, Runnable close) {
    byte[] buffer = new byte[256];
    try {
      while (in.read(buffer) >= 0) {
        // Nothing is read from the bench; only the end of input matters.
      }
    } catch (IOException e) {
      // Same as the end of input: whoever started us is gone.
    }
    close.run();
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    };
  }

  private static Map<String, String> options(String[] args) {
    Map<String, String> options = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 == args.length) {
        throw new IllegalArgumentException("expected --name value pairs, got " + args[i]);
      }
      options.put(args[i].substring(2), args[++i]);
    }
    return options;
  }

  private static String required(Map<String, String> options, String name) {
    String value = options.get(name);
    if (value == null || value.isEmpty()) throw new IllegalArgumentException("missing --" + name);
    return value;
  }
}
