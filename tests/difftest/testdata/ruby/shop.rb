# frozen_string_literal: true

require 'json'
require_relative 'helpers'

module Shop
  class Item
    attr_reader :name, :price

    def initialize(name, price)
      @name = name
      @price = price
    end

    def to_s
      "#{name}: #{price}"
    end

    def discounted(rate = 0.1)
      price * (1 - rate)
    end
  end

  class Cart
    def initialize
      @items = []
    end

    def add(item)
      @items << item
      self
    end

    def total
      @items.sum(&:price)
    end

    def each(&block)
      @items.each(&block)
    end

    def cheap
      @items.select { |i| i.price < 10 }
    end

    def names
      @items.map do |i|
        i.name.upcase
      end
    end
  end
end

cart = Shop::Cart.new
cart.add(Shop::Item.new('pen', 2)).add(Shop::Item.new('book', 12))
puts cart.total
puts JSON.generate(cart.names)
if cart.total > 10
  puts 'expensive'
else
  puts 'cheap'
end
raise ArgumentError, 'bad' unless cart.total.positive?
x = 1
x = x + 1
puts x == x
