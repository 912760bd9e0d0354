// gamebot from Go with net/http: a Dou Dizhu play, a mahjong discard, a gomoku
// move, and a 422 problem read by its JSON pointer.
//
//	go run go_client.go http://127.0.0.1:8080
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"
)

var client = &http.Client{Timeout: 10 * time.Second}

// Problem is an RFC 9457 problem document, as every 4xx and 5xx is.
type Problem struct {
	Title  string `json:"title"`
	Detail string `json:"detail"`
	Errors []struct {
		Pointer string `json:"pointer"`
		Message string `json:"message"`
	} `json:"errors"`
}

func post(base, path string, body any, out any) error {
	payload, err := json.Marshal(body)
	if err != nil {
		return err
	}
	resp, err := client.Post(base+path, "application/json", bytes.NewReader(payload))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 400 {
		var p Problem
		if err := json.NewDecoder(resp.Body).Decode(&p); err != nil {
			return err
		}
		var fields []string
		for _, e := range p.Errors {
			fields = append(fields, e.Pointer+": "+e.Message)
		}
		return fmt.Errorf("%d %s: %s", resp.StatusCode, p.Title, strings.Join(fields, ", "))
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func main() {
	base := "http://127.0.0.1:8080"
	if len(os.Args) > 1 {
		base = os.Args[1]
	}

	var play struct {
		Cards string `json:"cards"`
		Type  string `json:"type"`
	}
	must(post(base, "/doudizhu/play", map[string]any{
		"seat": "landlord_down", "hand": "3455567899TJQKA2B",
		"history": []string{"3334"}, "landlord_cards": "4TR", "seed": 7,
	}, &play))
	fmt.Printf("dou dizhu plays %q %s\n", play.Cards, play.Type)

	var discard struct {
		Action string `json:"action"`
		Tile   string `json:"tile"`
	}
	must(post(base, "/mahjong/discard", map[string]any{
		"variant": "riichi", "hand": "123m456p789s1127z5m", "drawn": "5m",
	}, &discard))
	fmt.Println("mahjong", discard.Action, discard.Tile)
	if discard.Action != "discard" {
		must(fmt.Errorf("expected a discard, got %s", discard.Action))
	}

	var move struct {
		Move []int `json:"move"`
	}
	must(post(base, "/gomoku/move", map[string]any{
		"moves": [][]int{{7, 7}, {8, 8}}, "max_depth": 4,
	}, &move))
	fmt.Println("gomoku plays", move.Move)
	if len(move.Move) != 2 {
		must(fmt.Errorf("expected a point, got %v", move.Move))
	}

	err := post(base, "/doudizhu/moves", map[string]any{"hand": "33Z"}, &struct{}{})
	if err == nil || !strings.Contains(err.Error(), "/hand") {
		must(fmt.Errorf("expected a 422 naming /hand, got %v", err))
	}
	fmt.Println("refused:", err)
	fmt.Println("ok")
}
