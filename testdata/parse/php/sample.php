<?php
// A small blog model, to exercise the PHP grammar.
declare(strict_types=1);

namespace App\Blog;

use DateTimeImmutable;
use InvalidArgumentException;
use JsonSerializable;

interface Repository
{
    public function find(int $id): ?Post;
    public function save(Post $post): void;
}

enum Status: string
{
    case Draft = 'draft';
    case Published = 'published';

    public function label(): string
    {
        return match ($this) {
            self::Draft => 'Entwurf',
            self::Published => 'Veröffentlicht',
        };
    }
}

trait HasTimestamps
{
    protected ?DateTimeImmutable $createdAt = null;

    public function touch(): static
    {
        $this->createdAt ??= new DateTimeImmutable();
        return $this;
    }
}

final class Post implements JsonSerializable
{
    use HasTimestamps;

    private array $tags = [];
    public const MAX_TITLE = 120;

    public function __construct(
        public readonly int $id,
        private string $title,
        private string $body = '',
        private Status $status = Status::Draft,
    ) {
        if (mb_strlen($title) > self::MAX_TITLE) {
            throw new InvalidArgumentException("Titel zu lang: {$title}");
        }
    }

    public function tag(string ...$tags): self
    {
        foreach ($tags as $tag) {
            $this->tags[strtolower($tag)] = true;
        }
        return $this;
    }

    public function publish(): void
    {
        $this->status = Status::Published;
        $this->touch();
    }

    public function jsonSerialize(): array
    {
        return [
            'id' => $this->id,
            'title' => $this->title,
            'status' => $this->status->value,
            'tags' => array_keys($this->tags),
            'created' => $this->createdAt?->format(DATE_ATOM),
        ];
    }
}

class MemoryRepository implements Repository
{
    /** @var array<int, Post> */
    private array $posts = [];

    public function find(int $id): ?Post
    {
        return $this->posts[$id] ?? null;
    }

    public function save(Post $post): void
    {
        $this->posts[$post->id] = $post;
    }

    public static function withSamples(): static
    {
        $repo = new static();
        $titles = ['Grüße aus Berlin', 'こんにちは世界', 'Hello 🐘'];
        foreach ($titles as $i => $title) {
            $repo->save((new Post($i + 1, $title))->tag('php', 'demo'));
        }
        return $repo;
    }
}

function summarize(iterable $posts, callable $format = null): string
{
    $format ??= fn(Post $p): string => json_encode($p, JSON_UNESCAPED_UNICODE);
    $lines = [];
    foreach ($posts as $post) {
        $lines[] = $format($post);
    }
    return implode(PHP_EOL, $lines);
}

$repo = MemoryRepository::withSamples();
$post = $repo->find(2) ?? throw new \RuntimeException('missing');
$post->publish();
$heredoc = <<<EOT
    Titel: {$post->jsonSerialize()['title']}
    Status: {$post->jsonSerialize()['status']}
    EOT;
$nowdoc = <<<'RAW'
    kein $interpolieren hier
    RAW;
['id' => $id, 'tags' => [$first]] = $post->jsonSerialize();
echo summarize([$post]), "\n", $heredoc, $nowdoc, $id, $first, PHP_EOL;
$closure = function (int $x) use (&$id): int {
    return $x * $id;
};
printf("%d %s\n", $closure(3), Status::from('draft')->label());
