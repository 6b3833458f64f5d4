# frozen_string_literal: true

# A small library catalogue, to exercise the Ruby grammar.
require "json"
require_relative "support/helpers"

module Library
  GREETING = "Grüße — こんにちは — 💎"

  class NotFound < StandardError; end

  # A book with an ISBN and a loan history.
  class Book
    include Comparable
    attr_reader :isbn, :title, :author
    attr_accessor :available

    def initialize(isbn:, title:, author:, year: nil)
      @isbn = isbn
      @title = title
      @author = author
      @year = year
      @available = true
      @loans = []
    end

    def <=>(other)
      [author, title] <=> [other.author, other.title]
    end

    def lend!(to:, days: 14)
      raise ArgumentError, "#{title} is out" unless available

      @loans << { to: to, due: Time.now + days * 86_400 }
      self.available = false
      self
    end

    def to_h = { isbn: isbn, title: title, author: author, year: @year }

    def to_s
      "#{title} (#{author}#{@year ? ", #{@year}" : ''})"
    end
  end

  class Catalog
    include Enumerable

    def initialize
      @books = {}
    end

    def <<(book)
      @books[book.isbn] = book
      self
    end

    def each(&block)
      return enum_for(:each) unless block_given?

      @books.values.sort.each(&block)
    end

    def find!(isbn)
      @books.fetch(isbn) { raise NotFound, "no book #{isbn}" }
    end

    def search(query)
      pattern = /#{Regexp.escape(query)}/i
      select { |b| b.title =~ pattern || b.author.match?(pattern) }
    end

    def self.load(json)
      JSON.parse(json, symbolize_names: true).each_with_object(new) do |attrs, catalog|
        catalog << Book.new(**attrs)
      end
    end

    class << self
      def empty = new
    end
  end
end

def classify(value)
  case value
  in Integer | Float => n if n.negative? then :negative
  in Integer then :integer
  in String => s then s.empty? ? :blank : :string
  in { title: String } then :book_hash
  in [_, *rest] then :"list_of_#{rest.size + 1}"
  else :other
  end
end

catalog = Library::Catalog.load(<<~JSON)
  [
    {"isbn": "1", "title": "Der Steppenwolf", "author": "Hermann Hesse", "year": 1927},
    {"isbn": "2", "title": "Momo", "author": "Michael Ende"}
  ]
JSON

catalog << Library::Book.new(isbn: "3", title: "Kokoro", author: "夏目漱石", year: 1914)
catalog.each_with_index { |book, i| puts "#{i + 1}. #{book}" }

begin
  catalog.find!("2").lend!(to: "Zoë").lend!(to: "Max")
rescue ArgumentError => e
  warn "failed: #{e.message}"
rescue Library::NotFound
  warn "not found"
else
  puts "lent twice?"
ensure
  puts Library::GREETING
end

counts = catalog.map(&:author).tally.transform_values { _1 * 2 }
symbols = %i[alpha beta gamma]
words = %w[eins zwei drei]
puts counts.inspect, symbols.zip(words).to_h, classify([1, 2, 3]), classify(-1.5)
puts catalog.search("momo").map(&:to_h).to_json if catalog.any?
x = 10
x -= 1 while x > 5
puts x unless x.zero?
lam = ->(a, b = 2) { a**b }
puts lam.(3), lam[2, 3], 1..10, (1...5).step(2).to_a.inspect
__END__
This text after __END__ is data, not code.
